/// A file-level problem that stops reading a delimited text file.
///
/// Each description is a sentence a clerk can act on: it names the file and says what to do.
public enum CSVError: Error, Equatable, CustomStringConvertible {
    /// A quoted field opened on `line` (1-based) and the file ended before it was closed.
    case unterminatedQuote(file: String, line: Int)
    /// The file is in an encoding other than UTF-8, such as "UTF-16 LE" (named by its byte-order mark) or
    /// "UTF-16 LE without a byte-order mark" (recognised by its NUL bytes).
    case unsupportedEncoding(file: String, encoding: String)
    /// The file could not be opened or read; `reason` is the system's explanation, e.g. "No such file or directory",
    /// and `errno` its error number (0 when the failure did not come from the system), which callers classify by.
    case unreadable(file: String, reason: String, errno: Int32 = 0)
    /// Field `column` (1-based) of the record starting on `line` is longer than `limit` bytes
    /// (`ReadLimits.maxFieldBytes`); reading stopped before the field was held in memory.
    case fieldTooLong(file: String, line: Int, column: Int, limit: Int)
    /// The record starting on `line` is longer than `limit` bytes in all (`ReadLimits.maxRowBytes`).
    case rowTooLong(file: String, line: Int, limit: Int)
    /// The record starting on `line` has more than `limit` fields (`ReadLimits.maxColumns`).
    case tooManyColumns(file: String, line: Int, limit: Int)
    /// Line `line` holds a NUL byte, which text saved by a spreadsheet never does: the file is binary.
    case binaryContent(file: String, line: Int)
    /// The file starts like an HTML page (a sign-in or error page saved where a sheet was expected).
    case webPage(file: String)
    /// The file has more than `limit` data rows (`ReadLimits.maxRows`).
    case tooManyRows(file: String, limit: Int)
    /// Reading the file took the rows of all the sources of `account` past `limit` (`ReadLimits.maxRows`).
    case tooManyAccountRows(file: String, account: String, limit: Int)

    /// One line naming the file, what is wrong and what to do about it.
    public var description: String {
        switch self {
        case .unterminatedQuote(let file, let line):
            return "\(file): a quoted field opened on line \(line) is never closed. "
                + "Look for a stray \" on that line and save the file again."
        case .unsupportedEncoding(let file, let encoding):
            return "\(file): the file is encoded as \(encoding), which cannot be read. "
                + "Open it in a spreadsheet and save it as \"CSV UTF-8\"."
        case .unreadable(let file, let reason, _):
            return
                "\(file): the file cannot be read (\(reason)). Check that the path is right and the file is readable."
        case .fieldTooLong(let file, let line, let column, let limit):
            return "\(file): the field in column \(column) of the row on line \(line) is longer than \(limit) bytes, "
                + "so the file is not read. Check that it is the spreadsheet you meant; if the field is real, raise "
                + "rules.maxFieldBytes in the account's account.json."
        case .rowTooLong(let file, let line, let limit):
            return "\(file): the row on line \(line) is longer than \(limit) bytes in all "
                + "(\(ReadLimits.rowBytesPerFieldBytes) times rules.maxFieldBytes), so the file is not read. Check that "
                + "it is the spreadsheet you meant; if the row is real, raise rules.maxFieldBytes in the account's "
                + "account.json."
        case .tooManyColumns(let file, let line, let limit):
            return "\(file): the row on line \(line) has more than \(limit) columns, more than a spreadsheet can "
                + "hold, so the file is not read. Check that it is the spreadsheet you meant and save it again."
        case .binaryContent(let file, let line):
            return "\(file): line \(line) holds a NUL byte, so the file is binary, not a sheet saved as text, and it "
                + "is not read. Check that it is the spreadsheet you meant and save it as \"CSV UTF-8\"."
        case .webPage(let file):
            return "\(file): the file is a web page (HTML), not a spreadsheet, so it is not read; it may be a sign-in "
                + "or error page saved in the sheet's place. Download the sheet again as \"CSV UTF-8\" or .xlsx."
        case .tooManyRows(let file, let limit):
            return "\(file): the file has more than \(limit) rows, so it is not read. Check that it is the "
                + "spreadsheet you meant; if it is, raise rules.maxRows in the account's account.json (and "
                + "rules.maxMemoryMB with it)."
        case .tooManyAccountRows(let file, let account, let limit):
            return "\(file): with this file the sources of account \(account) hold more than \(limit) rows in all, "
                + "so the account is not reconciled. Check that its sources are the spreadsheets you meant; if they "
                + "are, raise rules.maxRows in its account.json (and rules.maxMemoryMB with it)."
        }
    }

    /// The file the error names.
    public var file: String {
        switch self {
        case .unterminatedQuote(let file, _), .unsupportedEncoding(let file, _), .unreadable(let file, _, _),
            .fieldTooLong(let file, _, _, _), .rowTooLong(let file, _, _), .tooManyColumns(let file, _, _),
            .binaryContent(let file, _), .webPage(let file), .tooManyRows(let file, _),
            .tooManyAccountRows(let file, _, _):
            file
        }
    }

    /// The same error for a part of a file read from its line `offset + 1` on: its line numbers, counted from the
    /// part's start, become the file's.
    func shiftingLines(by offset: Int) -> CSVError {
        switch self {
        case .unterminatedQuote(let file, let line): .unterminatedQuote(file: file, line: line + offset)
        case .fieldTooLong(let file, let line, let column, let limit):
            .fieldTooLong(file: file, line: line + offset, column: column, limit: limit)
        case .rowTooLong(let file, let line, let limit): .rowTooLong(file: file, line: line + offset, limit: limit)
        case .tooManyColumns(let file, let line, let limit):
            .tooManyColumns(file: file, line: line + offset, limit: limit)
        case .binaryContent(let file, let line): .binaryContent(file: file, line: line + offset)
        case .unsupportedEncoding, .unreadable, .webPage, .tooManyRows, .tooManyAccountRows: self
        }
    }
}
