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
    public var line: String {
        "\(account): \(counted(assets, "asset")), \(counted(errors, "error")), \(counted(warnings, "warning")); "
            + "\(push)" + (report.isEmpty ? "" : "; report \(report)")
    }
}
