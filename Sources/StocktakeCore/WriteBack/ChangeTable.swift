/// `changes.csv`: every cell a push changes in the central sheet, in sheet order, appended rows last.
///
/// It is written on every run, pushed or not, so the clerk can see what a push would do before allowing it.
/// Cells are neutralized against formula injection like every other table stocktake writes. Rows are written from
/// the compact `SheetChanges` straight into the file's bytes, a block at a time.
public enum ChangeTable {
    /// The header of `changes.csv`.
    public static let columns = ["row", "vt_tag", "column", "before", "after", "reason"]

    /// The file's bytes.
    public static func csv(_ changes: SheetChanges) -> [UInt8] {
        let rows = Rows(changes)
        return TableFile.bytes(header: columns, rowCount: changes.count) { rows.append($0, to: &$1) }
    }

    /// Writes the file to `path` atomically; with `synchronizingFolder` false its folder is left for the caller to
    /// flush.
    public static func write(_ changes: SheetChanges, to path: String, synchronizingFolder: Bool = true)
        throws(StocktakeError)
    {
        let rows = Rows(changes)
        try TableFile.write(
            header: columns, rowCount: changes.count, row: { rows.append($0, to: &$1) }, to: path,
            synchronizingFolder: synchronizingFolder)
    }

    /// Writes rows of one list of changes.
    private struct Rows {
        let changes: SheetChanges
        /// Each column's header as a CSV cell.
        let labels: [[UInt8]]

        init(_ changes: SheetChanges) {
            self.changes = changes
            labels = changes.labels.map { label in
                var cell: [UInt8] = []
                CSVWriter.appendField(label, to: &cell)
                return cell
            }
        }

        /// Appends the row of change `index`.
        func append(_ index: Int, to output: inout [UInt8]) {
            let entry = changes.entries[index]
            CanonicalText.append(UInt64(entry.row), digits: 1, to: &output)
            output.append(ASCII.comma)
            if let tag = changes.tag(entry) { CanonicalText.append(tag, to: &output) }
            output.append(ASCII.comma)
            output.append(contentsOf: labels[Int(entry.column)])
            output.append(ASCII.comma)
            var scratch: [UInt8] = []
            changes.source.withUnsafeBufferPointer { source in
                RawSheet.withText(changes.beforeRange(entry), of: source, scratch: &scratch) {
                    CSVWriter.appendField($0, to: &output)
                }
            }
            output.append(ASCII.comma)
            changes.withAfterText(index) { CSVWriter.appendField($0, to: &output) }
            output.append(ASCII.comma)
            output.append(contentsOf: entry.reason.rawValue.utf8)
            CSVWriter.appendLineEnd(to: &output)
        }
    }
}
