import Foundation

/// The one logging helper: timestamped lines on standard error, tagged with the account.
///
/// Messages are built by callers from names, paths and counts only; credentials never reach it.
public struct Log: Sendable {
    /// The account the lines are about.
    public var account: String
    /// Whether anything is written; tests and `--quiet` turn it off.
    public var isEnabled: Bool

    public init(account: String, isEnabled: Bool = true) {
        self.account = account
        self.isEnabled = isEnabled
    }

    /// Writes one line.
    public func callAsFunction(_ message: String) {
        guard isEnabled else { return }
        let line = "\(RunDetails.timestamp(Date())) [\(account)] \(message)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
