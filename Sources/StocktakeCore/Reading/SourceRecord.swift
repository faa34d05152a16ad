/// One data row of a source spreadsheet after normalization.
///
/// The values are kept packed (96 bytes a row in all, its values 88 of them, where `AssetValues` alone is 232) and
/// unpacked when read.
public struct SourceRecord: Sendable {
    /// The 1-based data row (the header is not counted), as the clerk finds it in `file:row`.
    public var row: Int32
    /// The 1-based physical line the row starts on.
    public var line: Int32
    /// The values as kept.
    var packed: PackedValues

    /// The row's normalized values; invalid cells are left out.
    public var values: AssetValues {
        get { packed.values }
        set { packed = PackedValues(newValue) }
    }

    public init(row: Int, line: Int, values: AssetValues) {
        self.init(row: row, line: line, packed: PackedValues(values))
    }

    init(row: Int, line: Int, packed: PackedValues) {
        self.row = Int32(clamping: row)
        self.line = Int32(clamping: line)
        self.packed = packed
    }
}
