/// One data row of a source spreadsheet after normalization, as `SourceRows` hands it out.
///
/// The values are packed (96 bytes, where `AssetValues` alone is 232) and unpacked when read; `SourceRows` stores
/// only the bytes of the fields the row's file fills.
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
