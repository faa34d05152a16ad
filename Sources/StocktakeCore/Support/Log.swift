import Foundation

/// The one logging helper: timestamped lines on standard error, tagged with the account.
///
/// Messages are built by callers from names, paths and counts only; credentials never reach it. Names and paths
/// can hold anything a spreadsheet's author typed, so control characters in the account and the message are
/// escaped: one call always writes exactly one line.
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
        FileHandle.standardError.write(Data(line(message, at: Date()).utf8))
    }

    /// The line written for `message` at `date`, ending with a line break: the time, the account in brackets,
    /// then the message, with control characters in the account and the message escaped.
    func line(_ message: String, at date: Date) -> String {
        "\(RunDetails.timestamp(date)) [\(ControlCharacters.escaped(account))] \(ControlCharacters.escaped(message))\n"
    }
}
