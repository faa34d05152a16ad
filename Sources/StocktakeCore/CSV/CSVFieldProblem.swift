/// A problem found in one field of one record.
///
/// The reader keeps going after such a problem: the record is still delivered, with the field's bytes kept as
/// found, so the caller can decide whether to use the value and how to report it.
public struct CSVFieldProblem: Sendable, Equatable {
    /// What is wrong with the field.
    public enum Kind: Sendable, Equatable {
        /// A `"` inside an unquoted field (kept literally), or text after a closing quote (appended literally).
        case strayQuote
        /// The field's bytes are not valid UTF-8; `CSVRecord.string(at:)` shows the bad bytes as U+FFFD.
        case invalidUTF8
    }

    /// What is wrong with the field.
    public var kind: Kind
    /// 0-based index of the field in its record.
    public var field: Int
    /// 1-based physical line of the first offending byte (a quoted field may span several lines).
    public var line: Int

    /// Creates a problem report for `field` of a record, found on physical `line`.
    public init(kind: Kind, field: Int, line: Int) {
        self.kind = kind
        self.field = field
        self.line = line
    }
}
