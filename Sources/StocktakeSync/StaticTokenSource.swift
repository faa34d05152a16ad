import Foundation

/// A bearer token someone put in a file or an environment variable; it cannot be refreshed, only re-read.
public struct StaticTokenSource: BearerTokenSource {
    /// Where the token comes from.
    public enum Origin: Sendable, Hashable {
        case file(String)
        case environment(String)
    }

    public let origin: Origin
    public let account: String

    public init(_ origin: Origin, account: String) {
        self.origin = origin
        self.account = account
    }

    public func token() throws(SyncError) -> String {
        switch origin {
        case .file(let path):
            return try SecretsFile.read(path, account: account)
        case .environment(let name):
            guard let value = ProcessInfo.processInfo.environment[name]?.trimmingCharacters(in: .whitespaces),
                !value.isEmpty
            else {
                throw .secrets(account: account, path: "$\(name)", reason: "is not set")
            }
            return value
        }
    }

    /// A static token cannot be refreshed.
    public func refresh() throws(SyncError) -> Bool { false }

    /// The token, when it can be read.
    public var secrets: [String] {
        (try? token()).map { [$0] } ?? []
    }

    public var renewal: String {
        switch origin {
        case .file(let path): "Renew it in \(path)."
        case .environment(let name): "Set a fresh token in \(name)."
        }
    }
}
