import StocktakeCore

/// One line of `stocktake check`: one thing about one account that tonight's run depends on, and whether it works.
///
/// Details name files, keys and addresses (without query strings), never a token.
public struct CheckResult: Sendable, Hashable {
    public var account: String
    /// What was checked: `account.json`, a key such as `auth.tokenFile` or `rules.tagDigits`, `central`,
    /// `sightings[0]`, `registers[1]`, `buildings`, or `columns.<header>`.
    public var item: String
    /// What a failure means: `.success` when the check passed, `.configuration` when the account, a secrets file
    /// or a mapping must be fixed, `.unavailable` when a server could not be reached (it may work later).
    public var status: ExitStatus
    /// What was found, or what is wrong and how to fix it.
    public var detail: String

    public init(account: String, item: String, status: ExitStatus, detail: String) {
        self.account = account
        self.item = item
        self.status = status
        self.detail = detail
    }

    /// Whether the check passed.
    public var ok: Bool { status == .success }
}
