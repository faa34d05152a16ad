#if canImport(Glibc)
    import Glibc
#endif

/// Reads a source spreadsheet in one pass into normalized records, noting every cell that cannot be used.
///
/// Rows are normalized as they stream by, so memory grows with the number of rows kept, never with the file's
/// size in text. Blank rows are skipped; rows repeated exactly are kept once and listed.
public struct SourceReader: Sendable {
    public var mapping: ColumnMapping
    public var tagDigits: Int
    public var cnsDigits: Int
    public var buildings: BuildingTable?
    /// Whether normalized rows are kept. `inspect` only counts and checks them, so it reads any size in little memory.
    public var keepsRecords = true
    /// At most this many issues are kept; the rest are only counted in `SourceData.omittedIssues`.
    public var issueLimit = Int.max
    /// The most a field, a row and a source may hold (`rules.maxFieldBytes`, `rules.maxRows`).
    public var limits = ReadLimits()
    /// The rows of all the sources of the account read with this reader, limited by `limits.maxRows`; `nil` to
    /// limit each source alone.
    var accountRows: RowBudget?

    public init(mapping: ColumnMapping, tagDigits: Int = 6, cnsDigits: Int = 6, buildings: BuildingTable? = nil) {
        self.mapping = mapping
        self.tagDigits = tagDigits
        self.cnsDigits = cnsDigits
        self.buildings = buildings
    }

    /// Reads `file` from disk: a text file as CSV or TSV, in the encoding it sets if any; a workbook's sheet as a
    /// table.
    public func read(_ file: SourceFile) throws(StocktakeError) -> SourceData {
        switch SourceFormat.of(path: file.path) {
        case .workbook:
            return try WorkbookSource(file: file).read(with: self)
        case .compoundDocument:
            throw WorkbookSource.refusal(of: file)
        case .text:
            break
        }
        var reader: CSVReader
        do {
            reader = try CSVReader(path: file.path, encoding: file.encoding)
            reader.limits = limits
        } catch {
            throw Self.translate(error, file: file)
        }
        return try read(file, from: &reader)
    }

    /// Reads `file` from `bytes` already in memory (a pulled sheet): a workbook's sheet, or CSV or TSV text named
    /// `name`, whose extension may select the tab delimiter.
    public func read(_ file: SourceFile, bytes: [UInt8], name: String) throws(StocktakeError) -> SourceData {
        switch SourceFormat.of(prefix: bytes.prefix(8)) {
        case .workbook:
            return try WorkbookSource(file: file, bytes: bytes, name: name).read(with: self)
        case .compoundDocument:
            throw WorkbookSource.refusal(of: file)
        case .text:
            var reader = CSVReader(bytes: bytes, name: name)
            reader.limits = limits
            return try read(file, from: &reader)
        }
    }

    /// Reads `file` from an already opened reader (tests read from memory this way).
    public func read(_ file: SourceFile, from reader: inout CSVReader) throws(StocktakeError) -> SourceData {
        var state = ReadState(file: file, reader: self, expectedBytes: reader.expectedLength ?? 0)
        do {
            try reader.forEachRecord { record in try state.take(record) }
            try state.finish()
        } catch let error as CSVError {
            throw Self.translate(error, file: file)
        } catch {
            throw .badData(path: file.path, reason: "\(error)")
        }
        state.data.delimiter = reader.delimiter
        state.data.hadByteOrderMark = reader.hadByteOrderMark
        state.data.encoding = reader.encoding
        state.data.lineEnding = reader.lineEnding
        return state.data
    }

    static func translate(_ error: CSVError, file: SourceFile) -> StocktakeError {
        switch error {
        case .unreadable(_, let reason, let code):
            // Classified by the system's error number, never by the words of its message.
            if code == ENOENT { return .missingInput(path: file.path, what: "file") }
            return .unreadableInput(path: file.path, reason: "it cannot be read (\(reason))")
        case .unterminatedQuote, .unsupportedEncoding, .fieldTooLong, .rowTooLong, .tooManyColumns, .binaryContent,
            .webPage, .tooManyRows, .tooManyAccountRows:
            return .badData(path: file.path, reason: reason(error))
        }
    }

    /// The error's sentence without the file name it starts with, for messages that name the file by its path.
    static func reason(_ error: CSVError) -> String {
        let file = error.file
        let text = error.description
        return text.hasPrefix(file + ": ") ? String(text.dropFirst(file.count + 2)) : text
    }
}
