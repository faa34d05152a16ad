import StocktakeCore

/// What one `stocktake run` covers and how.
public struct NightlyRunOptions: Sendable {
    /// The folder of account folders.
    public var jobs = "Jobs"
    /// The folder of per-account state (runs, latest, locks, pending pushes).
    public var state = "state"
    /// Only these accounts, when given.
    public var accounts: [String] = []
    public var asOf = InventoryDate.today()
    /// Whether pushes and report uploads are made (`--no-push` turns them off).
    public var push = true
    /// Check and reconcile, but write no state and push nothing (`--dry-run`).
    public var dryRun = false
    /// Accept tonight's central sheet however much it shrank since the last good run, or that it is empty
    /// (`--accept-shrink`, for a deliberate cleanup).
    public var acceptShrink = false
    public var shard: Shard?
    /// Accounts reconciled at once.
    public var parallel = 2
    /// Whether progress is logged on standard error (tests turn it off).
    public var logs = true

    public init() {}
}
