/// `--check-against`: the older `stocktake` run on the same input, and how its outputs compare.
struct ReferenceRun: Sendable {
    /// The older executable.
    var program: String
    /// What its run cost.
    var measurement: ProcessMeasurement
    /// Its outputs against the new run's.
    var comparison: OutputComparison
}
