/// Everything read from one source spreadsheet: its layout, its normalized rows and the problems found.
public struct SourceData: Sendable {
    /// A row that repeats an earlier row of the same file exactly; it counts once.
    public struct RepeatedRow: Sendable, Hashable {
        public var row: Int
        public var line: Int
        /// The record of the first occurrence, or -1 when the reader did not keep records.
        public var firstRecordIndex: Int
        /// The data row of the first occurrence.
        public var firstRow: Int

        public init(row: Int, line: Int, firstRecordIndex: Int, firstRow: Int) {
            self.row = row
            self.line = line
            self.firstRecordIndex = firstRecordIndex
            self.firstRow = firstRow
        }
    }

    public var file: SourceFile
    public var layout: HeaderLayout
    /// The kept rows, in file order.
    public var records: SourceRows = []
    /// Cell and row problems, in file order.
    public var issues: [RowIssue] = []
    /// Problems beyond the reader's `issueLimit`, counted but not kept.
    public var omittedIssues = 0
    /// Rows that repeat an earlier row exactly.
    public var repeatedRows: [RepeatedRow] = []
    /// Data rows read (blank lines and the header not counted), including repeated rows.
    public var rowCount = 0
    /// The field separator found.
    public var delimiter: Delimiter = .comma
    /// Whether the file began with a UTF-8 byte-order mark.
    public var hadByteOrderMark = false
    /// The encoding the file was read in.
    public var encoding = TextEncoding.utf8
    /// The note the report shows about the file's encoding: only when it was guessed (Windows-1252, because the
    /// file is not UTF-8), not when the account's setting named it.
    public var encodingNote: String? { file.encoding == nil ? encoding.note : nil }
    /// The first line ending seen ("CRLF", "LF", "CR").
    public var lineEnding: String?
    /// The line the header was found on, 0 when the file is empty.
    public var headerLine = 0

    public init(file: SourceFile, layout: HeaderLayout) {
        self.file = file
        self.layout = layout
    }
}
