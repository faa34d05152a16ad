/// Where a finding stands against the runs before, as `discrepancies.csv`, `resolved.csv` and the ledger write it.
public enum FindingState: String, Sendable, Hashable, CaseIterable {
    /// Seen tonight and not in the last run (or back after it was resolved, or reopened after an acknowledgement).
    case new
    /// Seen tonight and in the last run too.
    case open
    /// Seen tonight and acknowledged: shown apart, counted neither as an error nor as a warning.
    case acknowledged
    /// In the last run and gone tonight.
    case resolved
    /// Gone tonight after stocktake's own push changed the asset's row in the central sheet.
    case fixedByPush = "fixed_by_push"

    /// Whether the finding stands tonight (new, open or acknowledged), rather than being gone.
    public var isCurrent: Bool { self == .new || self == .open || self == .acknowledged }
}
