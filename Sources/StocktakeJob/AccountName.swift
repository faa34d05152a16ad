/// The name of an account's folder under `Jobs/`, checked so it can never point outside it.
public struct AccountName: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let text: String

    /// Why a folder name is not an account name, or `nil` when it is one.
    public static func problem(with text: String) -> String? {
        if text.isEmpty { return "is empty" }
        if text.hasPrefix(".") { return "starts with a dot (hidden names and .. are not accounts)" }
        if text.contains("/") || text.contains("\\") { return "contains a slash" }
        if text.utf8.count > 100 { return "is longer than 100 characters" }
        let allowed = text.unicodeScalars.allSatisfy { scalar in
            (scalar.properties.isAlphabetic && scalar.isASCII) || ("0"..."9").contains(scalar)
                || "-_.".unicodeScalars.contains(scalar)
        }
        return allowed ? nil : "may only hold letters, digits, '-', '_' and '.'"
    }

    public init?(_ text: String) {
        guard Self.problem(with: text) == nil else { return nil }
        self.text = text
    }

    public var description: String { text }

    public static func < (lhs: AccountName, rhs: AccountName) -> Bool { lhs.text < rhs.text }
}
