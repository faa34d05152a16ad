import StocktakeCore

/// How one account's night went: its line in `stocktake run`'s output, and what the nightly mail needs.
public struct AccountOutcome: Sendable, Hashable {
    public var account: String
    public var status: ExitStatus
    public var assets = 0
    /// Error and warning findings, acknowledged ones not counted.
    public var errors = 0
    public var warnings = 0
    /// Findings new tonight, still open from the last run, gone since it, and acknowledged.
    public var new = 0
    public var open = 0
    public var resolved = 0
    public var acknowledged = 0
    /// New findings of severity error: the mail then carries the account's summary.
    public var newErrors = 0
    /// Whether the evidence guards refused the night (an empty or shrunken sheet, most assets unseen): nothing was
    /// reconciled or pushed, and the last good run stays `latest`.
    public var suspect = false
    /// "pushed", "not pushed: …", "push pending since …", "no push", "skipped: …", or why the account failed.
    public var push: String
    /// The account's report (a path, or a link under `report.url`), or "" when the run made none.
    public var report = ""
    /// The path of the account's `summary.txt`, or "" when the run made none.
    public var summary = ""

    public init(account: String, status: ExitStatus, push: String) {
        self.account = account
        self.status = status
        self.push = push
    }

    /// Whether the account was reconciled: its outputs were written (a push may still be pending), or it succeeded.
    public var isReconciled: Bool { !report.isEmpty || status == .success }

    /// The account's line: name, assets, what changed among the findings, push result, report; or, for an account
    /// that was not reconciled, FAILED or SUSPECT and why.
    ///
    /// The push result may quote a sheet's header cells (in an error), so control characters in the account, the
    /// push result and the report are escaped: each account gets exactly one line.
    public var line: String {
        let account = ControlCharacters.escaped(account)
        let push = ControlCharacters.escaped(push)
        guard isReconciled else {
            let reason = push.hasPrefix("failed: ") ? String(push.dropFirst("failed: ".count)) : push
            return "\(account): \(suspect ? "SUSPECT" : "FAILED"): \(reason)"
        }
        let findings =
            "\(grouped(new)) new, \(grouped(open)) open, \(grouped(resolved)) resolved"
            + (acknowledged > 0 ? ", \(grouped(acknowledged)) acknowledged" : "") + " findings"
        let report = ControlCharacters.escaped(report)
        return "\(account): \(counted(assets, "asset")); \(findings); \(push)"
            + (report.isEmpty ? "" : "; report \(report)")
    }
}
