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
    public var shard: Shard?
    /// Accounts reconciled at once.
    public var parallel = 2
    /// Whether progress is logged on standard error (tests turn it off).
    public var logs = true
    /// Accept tonight's central sheet even though it shrank beyond `rules.maxShrink` since the last good run, or is
    /// empty (`--accept-shrink`, for a deliberate cleanup).
    public var acceptShrink = false
    /// The program each account runs in, as a child process with its own memory and time limits and only its own
    /// token (`stocktake` itself, which `stocktake run` sets); `nil` runs every account in this process.
    public var executable: String?
    /// Whether each account's child is forked from an account launcher (``AccountLauncher``) started once per run,
    /// instead of executing `executable` anew, which costs about 10 ms of CPU per account. Only a program whose
    /// `launch-accounts` command serves the launcher may be given with it: `stocktake run` sets both.
    public var forksAccounts = false
    /// The variables of `--env-file`. They are never put into this process's environment: each account's child
    /// gets only its own `auth.tokenVariable` from them (and an in-process run does not see them).
    public var fileEnvironment: [String: String] = [:]
    /// The failures every account of the run simulates (`--simulate-failure`), added to each account's own
    /// `testFailureMode`.
    public var simulatedFailures: [SimulatedFailure] = []

    public init() {}
}
