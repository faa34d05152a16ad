/// The most a source may hold, so that reading any file, however hostile, needs bounded memory.
///
/// A field longer than `maxFieldBytes`, a row wider than `maxColumns` or longer than `maxRowBytes`, and more than
/// `maxRows` rows are refused with a sentence naming the file (and the line), before they are buffered: the reader
/// never holds more than about one chunk plus `maxRowBytes` of a row.
public struct ReadLimits: Sendable, Equatable {
    /// The default field limit: 1 MiB, far above any real cell and far below what a machine can hold.
    public static let defaultMaxFieldBytes = 1 << 20
    /// Excel's last column is XFD, the 16,384th: no spreadsheet has a wider row.
    public static let maximumColumns = 16_384
    /// The default row limit, per source and per account.
    public static let defaultMaxRows = 10_000_000
    /// A row may hold this many times `maxFieldBytes` in all, so that a row of many long fields is bounded too.
    public static let rowBytesPerFieldBytes = 16

    /// The most bytes one field (cell) may hold (`rules.maxFieldBytes`).
    public var maxFieldBytes: Int
    /// The most fields (cells) one row may hold.
    public var maxColumns: Int
    /// The most data rows one source, and all the sources of an account together, may hold (`rules.maxRows`).
    public var maxRows: Int

    /// The most bytes one row may hold in all: `rowBytesPerFieldBytes` times `maxFieldBytes`.
    public var maxRowBytes: Int {
        maxFieldBytes.multipliedReportingOverflow(by: Self.rowBytesPerFieldBytes).overflow
            ? Int.max : maxFieldBytes * Self.rowBytesPerFieldBytes
    }

    /// Limits of `maxFieldBytes` bytes per field, `maxColumns` fields per row and `maxRows` rows.
    public init(
        maxFieldBytes: Int = ReadLimits.defaultMaxFieldBytes, maxColumns: Int = ReadLimits.maximumColumns,
        maxRows: Int = ReadLimits.defaultMaxRows
    ) {
        self.maxFieldBytes = maxFieldBytes
        self.maxColumns = maxColumns
        self.maxRows = maxRows
    }
}
