/// `changes.csv`: every cell a push changes in the central sheet, in sheet order, appended rows last.
///
/// It is written on every run, pushed or not, so the clerk can see what a push would do before allowing it.
/// Cells are neutralized against formula injection like every other table stocktake writes.
public enum ChangeTable {
    /// The header of `changes.csv`.
    public static let columns = ["row", "vt_tag", "column", "before", "after", "reason"]

    /// The file's bytes.
    public static func csv(_ changes: [SheetChange]) -> [UInt8] {
        TableFile.bytes(header: columns, rowCount: changes.count) { row(changes[$0]) }
    }

    /// Writes the file to `path` atomically.
    public static func write(_ changes: [SheetChange], to path: String) throws(StocktakeError) {
        try TableFile.write(header: columns, rowCount: changes.count, row: { row(changes[$0]) }, to: path)
    }

    /// The cells of one change, in column order.
    public static func row(_ change: SheetChange) -> [String] {
        [
            String(change.row), change.vtTag?.description ?? "", change.column, change.before, change.after,
            change.reason.rawValue,
        ]
    }
}
