/// A problem that stops reading an `.xlsx` workbook.
///
/// Each description is a sentence a clerk can act on: it names the file (and the part or sheet) and says what to do.
public enum WorkbookError: Error, Equatable, CustomStringConvertible {
    /// The ZIP container could not be read (`ZipError` says why and names the file and the entry).
    case archive(ZipError)
    /// The file is an OLE2 compound document: an encrypted (password-protected) .xlsx or an old .xls workbook.
    case encryptedOrLegacy(file: String)
    /// The package has no workbook part, or its workbook lists no worksheet (only chart sheets, say).
    case noWorksheet(file: String)
    /// The source names a sheet the workbook does not have; `available` are the worksheets' names, in order.
    case noSuchSheet(file: String, sheet: String, available: [String])
    /// A part that the workbook's relationships name is not in the ZIP file.
    case missingPart(file: String, part: String)
    /// The XML of `part` is damaged.
    case damagedPart(file: String, part: String, XMLError)
    /// The XML of `part` declares a document type or entities, which is refused (never expanded or fetched).
    case entityDeclaration(file: String, part: String)
    /// A cell (`row` 1-based, `column` 0-based) refers to shared string `index`, which the table of `count` does not
    /// have.
    case missingSharedString(file: String, part: String, row: Int, column: Int, index: String, count: Int)
    /// The text of a cell (`row` 1-based, `column` 0-based) is longer than `limit` bytes (`ReadLimits.maxFieldBytes`).
    case cellTooLong(file: String, part: String, row: Int, column: Int, limit: Int)
    /// Row `row` (1-based) has a cell past column `limit` (`ReadLimits.maxColumns`).
    case tooManyColumns(file: String, part: String, row: Int, limit: Int)

    /// The error for a ZIP problem: a compound document is told apart, since it is what Excel makes of a workbook
    /// saved with a password (or an .xls file).
    init(_ error: ZipError) {
        if case .notZip(let file, .compoundDocument) = error {
            self = .encryptedOrLegacy(file: file)
        } else {
            self = .archive(error)
        }
    }

    /// One sentence naming the file, what is wrong and what to do about it.
    public var description: String {
        switch self {
        case .archive(let error):
            return error.description
        case .encryptedOrLegacy(let file):
            return "\(file) is encrypted or password-protected, or is an old .xls workbook: open it in Excel and "
                + "save it as an unprotected .xlsx (or as CSV UTF-8)."
        case .noWorksheet(let file):
            return "\(file): the workbook has no worksheet to read. "
                + "Open it in Excel, check that it holds a sheet of rows, and save it again."
        case .noSuchSheet(let file, let sheet, let available):
            let names = available.map { "\"\($0)\"" }.joined(separator: ", ")
            return "\(file): the workbook has no sheet named \"\(sheet)\"; its sheets are \(names). "
                + "Check the sheet's name where it is given (the account's sources, --central-sheet or --sheet)."
        case .missingPart(let file, let part):
            return "\(file): the workbook part \(part) is missing, so the workbook is damaged. "
                + "Open the workbook in Excel and save it again, or save it as CSV UTF-8."
        case .damagedPart(let file, let part, let error):
            return "\(file): the workbook part \(part) is damaged: \(error.reason). "
                + "Open the workbook in Excel and save it again, or save it as CSV UTF-8."
        case .entityDeclaration(let file, let part):
            return "\(file): the workbook part \(part) declares XML entities, which stocktake refuses to read "
                + "(they can hide or fetch content). Open the workbook in Excel and save it again as .xlsx."
        case .missingSharedString(let file, let part, let row, let column, let index, let count):
            return "\(file): cell \(WorkbookError.cellName(row: row, column: column)) of \(part) refers to shared "
                + "string \(index), but the workbook has \(count). Open the workbook in Excel and save it again."
        case .cellTooLong(let file, let part, let row, let column, let limit):
            return "\(file): the text of cell \(WorkbookError.cellName(row: row, column: column)) of \(part) is longer "
                + "than \(limit) bytes, so the workbook is not read. Check that it is the spreadsheet you meant; if "
                + "the cell is real, raise rules.maxFieldBytes in the account's account.json."
        case .tooManyColumns(let file, let part, let row, let limit):
            return "\(file): row \(row) of \(part) has more than \(limit) cells, more than a spreadsheet can hold, "
                + "so the workbook is not read. Open it in Excel, check the row and save it again."
        }
    }

    /// The A1-style name of a cell, such as `C7`.
    static func cellName(row: Int, column: Int) -> String {
        var letters: [Character] = []
        var rest = column + 1
        while rest > 0 {
            let remainder = (rest - 1) % 26
            letters.insert(Character(Unicode.Scalar(UInt8(ascii: "A") + UInt8(remainder))), at: 0)
            rest = (rest - 1) / 26
        }
        return String(letters) + String(row)
    }
}
