/// An expected discrepancy whose note still has to name the file rows it cites.
struct PlannedExpectation: Sendable {
    /// The expected row, with a note that does not yet say where.
    var discrepancy: ExpectedDiscrepancy
    /// Markers of the planned rows the note cites, in order.
    var markers: [Int]
}
