import StocktakeCore

/// The central sheet as the last good run pulled it: how many data rows it had, and when.
///
/// A night whose central sheet has far fewer rows (a sheet cut off, emptied or replaced by mistake) is refused
/// before anything is reconciled or pushed, because the cleaned table made from it would re-create every lost row
/// as unrecorded and could be pushed over the company's record.
public struct CentralBaseline: Sendable, Hashable {
    /// Data rows of the sheet (the header and blank lines not counted).
    public var rows: Int
    /// The day (UTC) the run that pulled it started.
    public var date: InventoryDate
    /// The id of that run, for people tracing it.
    public var runID: String

    public init(rows: Int, date: InventoryDate, runID: String) {
        self.rows = rows
        self.date = date
        self.runID = runID
    }
}
