/// One record (row) of a delimited text file, as parsed by `CSVReader`.
///
/// The record is a view into the reader's buffers, so no memory is allocated per field.
/// Its field buffers are valid only inside the `CSVReader.forEachRecord` callback that receives it:
/// copy what you need (for example with `string(at:)` or `Array(record[index])`) before the callback returns.
public struct CSVRecord {
    /// 1-based physical line where the record starts.
    public let line: Int
    /// Number of physical lines the record spans; more than 1 when a quoted field holds line breaks.
    public let lineCount: Int
    /// Problems found in the record's fields, in field order; empty for a clean record.
    public let problems: [CSVFieldProblem]
    /// The unescaped bytes of each field.
    private let fields: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>
    /// The offset in the text of the line end that ended the record, or the text's length for a last record
    /// without one.
    let end: Int
    /// The record's text as its file holds it, when its fields are that text split at single delimiters (no field
    /// quoted); `nil` otherwise. A row's fingerprint is taken from it in place (`RowFingerprint`).
    let run: Run?
    /// Whether a field may hold a NUL byte. The tokenizer refuses a CSV file with one, so its records hold none; a
    /// workbook's text can (`_x0000_`), and a record made elsewhere is taken to.
    let mayHoldNUL: Bool

    /// Text whose fields lie one after another, each two separated by one `delimiter`, which no field holds.
    struct Run {
        var bytes: UnsafeBufferPointer<UInt8>
        var delimiter: UInt8
    }

    /// Creates a view on parsed fields; the buffers must stay valid for as long as the record is used. `run`, when
    /// given, is the fields' text with its delimiters; `mayHoldNUL` is false only where NUL bytes were refused.
    init(
        line: Int, lineCount: Int, fields: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>,
        problems: [CSVFieldProblem], end: Int, run: Run? = nil, mayHoldNUL: Bool = true
    ) {
        self.line = line
        self.lineCount = lineCount
        self.fields = fields
        self.problems = problems
        self.end = end
        self.run = run
        self.mayHoldNUL = mayHoldNUL
    }

    /// The fingerprint of the record's fields.
    var fingerprint: RowFingerprint {
        if let run { return RowFingerprint(run: run.bytes, delimiter: run.delimiter, cellCount: fields.count) }
        return RowFingerprint(cells: fields, mayHoldNUL: mayHoldNUL)
    }

    /// Number of fields; rows of one file may differ (ragged rows are delivered as they are).
    public var count: Int { fields.count }

    /// Whether the record has no bytes at all. Always `false` for delivered records, because the reader skips
    /// blank lines; a line of delimiters only, such as `,,,`, is a record of empty fields, not a blank one.
    public var isBlank: Bool { fields.isEmpty }

    /// The unescaped bytes of field `field` (0-based): surrounding quotes removed and `""` turned into `"`.
    ///
    /// The buffer is only valid inside the `forEachRecord` callback.
    public subscript(field: Int) -> UnsafeBufferPointer<UInt8> {
        precondition(field >= 0 && field < fields.count, "field index \(field) out of range 0..<\(count)")
        return fields[field]
    }

    /// The field decoded as UTF-8; invalid byte sequences become U+FFFD (and are listed in `problems`).
    public func string(at field: Int) -> String {
        String(decoding: self[field], as: UTF8.self)
    }

    /// All fields decoded as UTF-8, as `string(at:)` does.
    public var strings: [String] {
        (0..<count).map { string(at: $0) }
    }
}
