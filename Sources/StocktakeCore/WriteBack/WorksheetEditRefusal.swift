/// Why the planned edit of a workbook central sheet cannot be made safely, so the push is not made.
///
/// The workbook is the company's system of record: a worksheet whose XML the editor cannot place a change in
/// exactly is left as it is rather than edited blindly. `changes.csv` still lists the changes the push would make.
public enum WorksheetEditRefusal: Error, Equatable, CustomStringConvertible, Sendable {
    /// The rows of the sheet are not in ascending order, or a row number repeats.
    case rowsOutOfOrder(file: String, sheet: String)
    /// A cell must be added to `row`, whose cells lack their `r` reference or are not in column order, or a changed
    /// cell's column is written twice in it.
    case cellsOutOfOrder(file: String, sheet: String, row: Int)
    /// The ZIP file holds two entries of the same name, so it cannot be written again as it was.
    case duplicateEntry(file: String, name: String)

    public var description: String {
        "\(file): \(reason)"
    }

    /// The workbook's file name.
    public var file: String {
        switch self {
        case .rowsOutOfOrder(let file, _), .cellsOutOfOrder(let file, _, _),
            .duplicateEntry(let file, _):
            file
        }
    }

    /// What is wrong and what to do, as a clause after the workbook's name or address.
    public var reason: String {
        let what: String
        switch self {
        case .rowsOutOfOrder(_, let sheet):
            what =
                "the rows of sheet \"\(sheet)\" are not in ascending order (or a row number repeats), so "
                + "its cells cannot be changed safely"
        case .cellsOutOfOrder(_, let sheet, let row):
            what =
                "row \(row) of sheet \"\(sheet)\" has cells without a reference or out of column order, so "
                + "a cell cannot be changed or added in it safely"
        case .duplicateEntry(_, let name):
            what = "the workbook holds two parts named \(name), so it cannot be written again safely"
        }
        return "\(what); the central sheet was not pushed. Open the workbook in Excel or LibreOffice "
            + "and save it again; changes.csv lists what the push would change."
    }
}
