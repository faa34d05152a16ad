/// Whether a sheet pulled from a server or read from a file arrived whole, and how many data rows it has.
///
/// A transfer cut short usually ends inside the last row, which then has fewer cells than the header and no line
/// break after it, or inside a quoted field, which is then still open at the end. Both are found in one streaming
/// pass over the bytes, with the delimiter chosen as `CSVReader` chooses it. A short last row that does end with a
/// line break arrived whole (Google Sheets leaves out a row's trailing empty cells), so it is not a problem. Data
/// rows are counted as reconciliation counts them: the header (the first row with a non-blank cell) and blank rows
/// are not data rows. A cut inside the last cell of a row that has all its cells cannot be seen this way.
public struct SheetIntegrity: Sendable, Hashable, CustomStringConvertible {
    /// Why a sheet looks incomplete or cannot be read.
    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// A quoted field opened on `line` (1-based) is still open at the end of the bytes.
        case openQuote(line: Int)
        /// The bytes end inside the last data row, on `line`, which has `cells` cells where the header has
        /// `headerCells`.
        case shortLastRow(line: Int, cells: Int, headerCells: Int)
        /// The bytes are in an encoding that is not read, such as "UTF-16 LE without a byte-order mark".
        case unsupportedEncoding(String)
        /// The bytes are the start of an `.xlsx` workbook that ends before its ZIP directory.
        case cutOffWorkbook
        /// The bytes are not a sheet the reader reads (a NUL byte, an HTML page, a cell or row past the limits);
        /// `reason` is the reader's sentence after the file name.
        case unreadable(reason: String)

        /// What is wrong and what to do, as a clause after the file name.
        public var description: String {
            switch self {
            case .openQuote(let line):
                return "a quoted field opened on line \(grouped(line)) is still open at the end: the transfer was "
                    + "cut off. Pull the sheet again, and if that line of the sheet itself has a stray \", remove it."
            case .shortLastRow(let line, let cells, let headerCells):
                return "the last row (line \(grouped(line))) has \(cells) of \(counted(headerCells, "cell")): "
                    + "the transfer was cut off. Pull the sheet again, and if that row is short in the sheet itself, "
                    + "complete it there."
            case .unsupportedEncoding(let encoding):
                return "the file is encoded as \(encoding), which cannot be read. "
                    + "Open it in a spreadsheet and save it as \"CSV UTF-8\"."
            case .cutOffWorkbook:
                return "the workbook ends before its ZIP directory: the transfer was cut off. Pull the sheet again, "
                    + "and if the file itself is damaged, save the workbook again in Excel."
            case .unreadable(let reason):
                return reason
            }
        }
    }

    /// The name the sheet's bytes were checked under, used in `description`.
    public var fileName: String
    /// Data rows read before the end, or before the problem: header and blank rows excluded.
    public var dataRows: Int
    /// Why the sheet looks incomplete or unreadable; `nil` when it looks whole.
    public var problem: Problem?

    public init(fileName: String, dataRows: Int, problem: Problem?) {
        self.fileName = fileName
        self.dataRows = dataRows
        self.problem = problem
    }

    /// Whether the sheet looks whole and readable.
    public var isComplete: Bool { problem == nil }

    /// One sentence for people: the problem after the file name, or the data row count when the sheet is whole.
    public var description: String {
        guard let problem else { return "\(fileName): \(counted(dataRows, "data row")), complete." }
        return "\(fileName): \(problem)"
    }

    /// Checks the bytes of a sheet named `fileName`, whose extension (`.tsv`, `.tab`) may choose the delimiter as it
    /// does for `CSVReader`; `delimiter` fixes it instead. Bytes of an `.xlsx` workbook are checked as a workbook,
    /// counting the rows of `sheet` (its first visible sheet when `nil`). `limits` must be those the sheet is read
    /// with afterwards: a sheet this check finds unreadable is not held against the evidence guards, because the
    /// read that follows refuses it with its own sentence.
    public static func check(
        _ bytes: [UInt8], fileName: String, delimiter: Delimiter? = nil, sheet: String? = nil,
        limits: ReadLimits = ReadLimits()
    ) -> SheetIntegrity {
        if SourceFormat.of(prefix: bytes.prefix(8)) == .workbook {
            return checkWorkbook(bytes, fileName: fileName, sheet: sheet, limits: limits)
        }
        var reader = CSVReader(bytes: bytes, name: fileName, delimiter: delimiter)
        reader.limits = limits
        var headerCells: Int?
        var dataRows = 0
        // The last record read, when it is a data row: its line and its number of cells.
        var lastRow: (line: Int, cells: Int)?
        var problem: Problem?
        do {
            try reader.forEachRecord { record in
                let cells = cellsBeforeTrailingBlanks(record)
                if cells == 0 || headerCells == nil {
                    lastRow = nil
                    if cells > 0 { headerCells = cells }
                } else {
                    dataRows += 1
                    lastRow = (record.line, record.count)
                }
            }
        } catch CSVError.unterminatedQuote(_, let line) {
            problem = .openQuote(line: line)
        } catch CSVError.unsupportedEncoding(_, let encoding) {
            problem = .unsupportedEncoding(encoding)
        } catch let error as CSVError {
            // A NUL byte, an HTML page, a cell or a row past the limits: hostile or wrong bytes, never a cut.
            problem = .unreadable(reason: SourceReader.reason(error))
        } catch {
            // The body throws nothing.
            preconditionFailure("unexpected error reading bytes in memory: \(error)")
        }
        let endsWithLineBreak = bytes.last == ASCII.lineFeed || bytes.last == ASCII.carriageReturn
        if problem == nil, !endsWithLineBreak, let lastRow, let headerCells, lastRow.cells < headerCells {
            problem = .shortLastRow(line: lastRow.line, cells: lastRow.cells, headerCells: headerCells)
        }
        return SheetIntegrity(fileName: fileName, dataRows: dataRows, problem: problem)
    }

    /// A workbook is cut off when its ZIP directory is missing; any other problem makes it unreadable, for the read
    /// that follows to report with its own sentence.
    private static func checkWorkbook(
        _ bytes: [UInt8], fileName: String, sheet: String?, limits: ReadLimits
    ) -> SheetIntegrity {
        var dataRows = 0
        var sawHeader = false
        do {
            let workbook = try Workbook(bytes: bytes, name: fileName)
            let chosen = sheet.flatMap { try? workbook.sheet(named: $0) } ?? workbook.defaultSheet
            try workbook.forEachRecord(in: chosen, limits: limits) { record in
                guard cellsBeforeTrailingBlanks(record) > 0 else { return }
                if sawHeader { dataRows += 1 } else { sawHeader = true }
            }
        } catch WorkbookError.archive(.truncated) {
            return SheetIntegrity(fileName: fileName, dataRows: 0, problem: .cutOffWorkbook)
        } catch {
            return SheetIntegrity(fileName: fileName, dataRows: dataRows, problem: .unreadable(reason: "\(error)"))
        }
        return SheetIntegrity(fileName: fileName, dataRows: dataRows, problem: nil)
    }

    /// The number of cells of `record` up to its last non-blank one: 0 for a blank row such as `,,,`.
    private static func cellsBeforeTrailingBlanks(_ record: borrowing CSVRecord) -> Int {
        var count = record.count
        while count > 0 && ByteTrim.trimmed(record[count - 1]).isEmpty { count -= 1 }
        return count
    }
}
