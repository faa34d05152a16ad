/// One data row of a source spreadsheet after normalization.
public struct SourceRecord: Sendable {
    /// The 1-based data row (the header is not counted), as the clerk finds it in `file:row`.
    public var row: Int32
    /// The 1-based physical line the row starts on.
    public var line: Int32
    /// The row's normalized values; invalid cells are left out.
    public var values: AssetValues

    public init(row: Int, line: Int, values: AssetValues) {
        self.row = Int32(clamping: row)
        self.line = Int32(clamping: line)
        self.values = values
    }
}
