/// What one benchmark measured and found.
struct BenchmarkResult: Sendable {
    /// One account's findings against its injected ones.
    struct AccountFindings: Sendable {
        var account: String
        var comparison: FindingsComparison
    }

    /// The command that was run.
    var command: RunCommand
    /// The datasets the accounts read.
    var datasets: [Dataset]
    /// What was measured, as users type it: `stocktake reconcile`, `stocktake run`.
    var program: String
    /// The measured process: of several runs (`--runs`), the run of median wall time.
    var measurement: ProcessMeasurement
    /// The wall times of all runs, when there were several.
    var series: RunSeries?
    /// Input files read, over all accounts.
    var inputFiles: Int
    /// Rows read, over all accounts (the inputs' rows in run.json).
    var rows: Int
    /// Bytes of the input files, over all accounts.
    var inputBytes: Int
    /// Each phase of run.json with its seconds, summed over the accounts, in the order the runs list them.
    var phases: [(name: String, seconds: Double)]
    /// Reading the inputs from the page cache.
    var floor: PageCacheFloor
    /// Starting and ending the measured program when it does nothing; `nil` when not measured.
    var start: StartFloor?
    /// Where the jobs benchmark wrote its state, when that is ext4 without a journal; `nil` otherwise.
    var fileSystem: JournalFreeExt4?
    /// Each account's findings, in account order.
    var findings: [AccountFindings]
    /// The run's discrepancy counts by code (one account).
    var counts: [String: Int] = [:]
    /// `--compare-duckdb`.
    var duckDB: DuckDBComparison?
    /// `--check-against`.
    var reference: ReferenceRun?

    /// Whether every account found exactly its injected discrepancies.
    var findingsEqual: Bool { findings.allSatisfy(\.comparison.isEqual) }

    /// 0 when the findings are equal and the outputs (when compared) identical, else 1.
    var exitStatus: Int32 {
        findingsEqual && (reference?.comparison.isIdentical ?? true) ? 0 : 1
    }
}
