#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The points of a run where a test may stop the process with `SIGKILL`, to show that a run killed there leaves the
/// previous `latest`, the central sheet and the account's state whole, and that the next run settles it.
///
/// This list is the documentation of the kill matrix (README "Reliability"): each case is one seam, reached in the
/// order listed during a nightly run that pushes. A test hook, inert unless the process starts with both
/// `STOCKTAKE_TEST_HOOKS=1` and `STOCKTAKE_KILL_AT=<point>[:<n>]` (the `n`-th time the point is reached, 1 by
/// default). Both are needed so that a stray `STOCKTAKE_KILL_AT`, left in a shell or a cron environment by someone
/// who ran the tests, can never kill a production night: the second variable says on purpose that this is a test.
/// The environment is read once; an unarmed seam costs one load and one comparison.
public enum KillPoint: String, CaseIterable, Sendable {
    /// The central sheet has been pulled and kept in the run's `pulled/` folder.
    case afterPull = "after-pull"
    /// The first part of the sources has been read, the others not yet.
    case midRead = "mid-read"
    /// The reconciliation is done, nothing of it written yet.
    case afterReconcile = "after-reconcile"
    /// Each output written to its temporary file and flushed, before the rename gives it its name.
    case renameCleanedCSV = "before-rename:cleaned.csv"
    case renameDiscrepanciesCSV = "before-rename:discrepancies.csv"
    case renameResolvedCSV = "before-rename:resolved.csv"
    case renameCleanedWorkbook = "before-rename:cleaned.xlsx"
    case renameDiscrepanciesWorkbook = "before-rename:discrepancies.xlsx"
    case renameChangesCSV = "before-rename:changes.csv"
    /// The push journal written to its temporary file, before it takes its name (so before the push).
    case renamePushJournal = "before-rename:push-journal.json"
    /// The push journal is recorded, the central sheet not yet replaced.
    case afterPushJournal = "after-push-journal"
    /// The central sheet has been replaced, the journal not yet cleared.
    case afterPush = "after-push"
    case renameReport = "before-rename:report.html"
    case renameSummary = "before-rename:summary.txt"
    case renameLedger = "before-rename:ledger.csv"
    case renameRunRecord = "before-rename:run.json"
    /// The new `latest` link is made under its temporary name, not yet renamed over `latest`.
    case beforeLatestSwap = "before-latest-swap"
    /// `latest` names the new run; old runs are not pruned yet.
    case afterLatestSwap = "after-latest-swap"
    /// An old run folder's files are removed, the folder itself not yet.
    case midPrune = "mid-prune"
    /// A failed push's record written to its temporary file, before it takes its name.
    case renamePendingPush = "before-rename:pending-push.json"

    /// The variable naming the point to stop at, `<point>[:<n>]`.
    public static let variable = "STOCKTAKE_KILL_AT"
    /// The variable that must be `1` for `variable` to be honoured.
    public static let enablingVariable = "STOCKTAKE_TEST_HOOKS"

    /// Stops the process with `SIGKILL` when it is armed for `point` and this is the time it was asked to stop at.
    @inline(__always)
    public static func reached(_ point: KillPoint) {
        guard let armed = Armed.shared, armed.point == point else { return }
        armed.count()
    }

    /// The seam of `AtomicFileWriter`: the file at `path` is complete under its temporary name and about to be
    /// renamed to it. Stops the process when it is armed for the `before-rename:` point of that file's name.
    @inline(__always)
    public static func renaming(_ path: String) {
        guard let armed = Armed.shared, let name = armed.point.renamedFile else { return }
        if path == name || path.hasSuffix("/" + name) { armed.count() }
    }

    /// The file name of a `before-rename:` point, else `nil`.
    var renamedFile: String? {
        let prefix = "before-rename:"
        return rawValue.hasPrefix(prefix) ? String(rawValue.dropFirst(prefix.count)) : nil
    }

    /// The point and count `value` (`<point>[:<n>]`) names, or `nil` when it names none; `n` is at least 1.
    public static func parse(_ value: String) -> (point: KillPoint, time: Int)? {
        if let point = KillPoint(rawValue: value) { return (point, 1) }
        guard let colon = value.lastIndex(of: ":"), let time = Int(value[value.index(after: colon)...]), time >= 1,
            let point = KillPoint(rawValue: String(value[..<colon]))
        else { return nil }
        return (point, time)
    }

    /// Why `STOCKTAKE_KILL_AT` in `environment` is not honoured, as a sentence for the log; `nil` when it is unset or
    /// honoured.
    public static func ignoredReason(environment: [String: String]) -> String? {
        guard let value = environment[variable] else { return nil }
        guard environment[enablingVariable] == "1" else {
            return "\(variable) is set but ignored: it is a test hook, honoured only with \(enablingVariable)=1. "
                + "Remove it from the environment of nightly runs."
        }
        guard parse(value) != nil else {
            return "\(variable)=\(value) names no kill point, so it is ignored. The points are "
                + allCases.map(\.rawValue).joined(separator: ", ") + "; add :N to stop the N-th time."
        }
        return nil
    }

    /// The point this process stops at, read from its environment once.
    final class Armed: @unchecked Sendable {
        let point: KillPoint
        private let time: Int
        private var reachedCount = 0
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

        init(point: KillPoint, time: Int) {
            self.point = point
            self.time = time
            pthread_mutex_init(lock, nil)
        }

        static let shared: Armed? = {
            guard let enabled = getenv(KillPoint.enablingVariable), String(cString: enabled) == "1",
                let value = getenv(KillPoint.variable), let parsed = KillPoint.parse(String(cString: value))
            else { return nil }
            return Armed(point: parsed.point, time: parsed.time)
        }()

        /// Counts one arrival at the point; the arrival asked for stops the process at once.
        func count() {
            pthread_mutex_lock(lock)
            reachedCount += 1
            let stop = reachedCount == time
            pthread_mutex_unlock(lock)
            if stop { raise(SIGKILL) }
        }
    }
}
