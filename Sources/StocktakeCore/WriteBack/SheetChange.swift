/// One cell a push changes in the central sheet: one row of `changes.csv`.
public struct SheetChange: Sendable, Hashable {
    /// The central sheet's 1-based data row (the header and blank rows are not counted, as in `sources` columns);
    /// for an appended row, the number it has once appended.
    public var row: Int
    /// The VT tag of the row, when it has a valid one.
    public var vtTag: VTTag?
    /// The sheet's own header text of the column ("(column N)" when the header cell is empty).
    public var column: String
    /// The cell's text before the change; empty for appended rows.
    public var before: String
    /// The cell's text after the change, exactly as written.
    public var after: String
    /// Why the cell changed.
    public var reason: ChangeReason

    public init(row: Int, vtTag: VTTag?, column: String, before: String, after: String, reason: ChangeReason) {
        self.row = row
        self.vtTag = vtTag
        self.column = column
        self.before = before
        self.after = after
        self.reason = reason
    }
}
