import StocktakeCore

/// How one account's night went: the line it gets at the end of `stocktake run`'s output.
public struct AccountOutcome: Sendable, Hashable {
    public var account: String
    public var status: ExitStatus
    public var assets = 0
    public var errors = 0
    public var warnings = 0
    /// "pushed", "not pushed: …", "push pending since …", "no push", "skipped: …".
    public var push: String
    /// The account's report, or "" when the run made none.
    public var report = ""

    public init(account: String, status: ExitStatus, push: String) {
        self.account = account
        self.status = status
        self.push = push
    }

    /// The summary line: name, assets, errors, warnings, push result, report path.
    ///
    /// The push result may quote a sheet's header cells (in an error), so control characters in the account, the
    /// push result and the report path are escaped: each account gets exactly one line.
    public var line: String {
        let account = ControlCharacters.escaped(account)
        let push = ControlCharacters.escaped(push)
        let report = ControlCharacters.escaped(report)
        return "\(account): \(counted(assets, "asset")), \(counted(errors, "error")), "
            + "\(counted(warnings, "warning")); \(push)" + (report.isEmpty ? "" : "; report \(report)")
    }
}
