/// Everything a generated account contains before it is written: the rows of every source file and the
/// discrepancies the reconciler must find.
struct AccountPlan: Sendable {
    /// The rows of each source file, not yet in file order.
    var rows: [SourceFile: [PlannedRow]]
    /// The expected discrepancies.
    var expectations: [PlannedExpectation]
}
