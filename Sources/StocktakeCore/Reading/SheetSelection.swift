/// Which sheets of a workbook a source stands for. Text files (CSV, TSV) have one table and ignore it.
public enum SheetSelection: Sendable, Hashable {
    /// The workbook's first visible worksheet, the one Excel opens on: what a clerk means by "the sheet".
    case first
    /// The worksheet with this name (hidden or not), for a workbook whose data is not on its first sheet.
    case named(String)
    /// Every visible worksheet, each read as a source of its own with its own header row.
    case all
}
