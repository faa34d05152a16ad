/// A problem that stops reading an `.xlsx` workbook.
///
/// Each description is a sentence a clerk can act on: it names the file (and the part or sheet) and says what to do.
public enum WorkbookError: Error, Equatable, CustomStringConvertible {
    /// The XML of `part` is damaged.
    case damagedPart(file: String, part: String, XMLError)
    /// The XML of `part` declares a document type or entities, which is refused (never expanded or fetched).
    case entityDeclaration(file: String, part: String)
    /// A cell (`row` 1-based, `column` 0-based) refers to shared string `index`, which the table of `count` does not
    /// have.
    case missingSharedString(file: String, part: String, row: Int, column: Int, index: String, count: Int)

    /// One sentence naming the file, what is wrong and what to do about it.
    public var description: String {
        switch self {
        case .damagedPart(let file, let part, let error):
            return "\(file): the workbook part \(part) is damaged: \(error.reason). "
                + "Open the workbook in Excel and save it again, or save it as CSV UTF-8."
        case .entityDeclaration(let file, let part):
            return "\(file): the workbook part \(part) declares XML entities, which stocktake refuses to read "
                + "(they can hide or fetch content). Open the workbook in Excel and save it again as .xlsx."
        case .missingSharedString(let file, let part, let row, let column, let index, let count):
            return "\(file): cell \(WorkbookError.cellName(row: row, column: column)) of \(part) refers to shared "
                + "string \(index), but the workbook has \(count). Open the workbook in Excel and save it again."
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
