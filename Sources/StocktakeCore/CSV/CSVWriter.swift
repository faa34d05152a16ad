/// Writes RFC 4180 CSV in UTF-8, with a chosen line ending, safe to open in a spreadsheet.
///
/// Cells that a spreadsheet would run as a formula get a leading `'` (see `neutralized(_:)`), unless the writer is
/// told not to protect formulas because it copies a sheet's values verbatim; cells holding a comma, a quote or a line break are quoted with inner quotes doubled (see `field(_:)`). A row made of one empty
/// cell is written as `""`, so that it is not read back as a blank line and skipped.
public struct CSVWriter: Sendable {
    /// The line ending written after every row.
    public enum LineEnding: Sendable {
        /// CR LF, as RFC 4180 specifies and Windows spreadsheets expect.
        case crlf
        /// LF alone, as Unix tools expect.
        case lf
    }

    /// Everything written so far: the header row, then each appended row.
    public private(set) var bytes: [UInt8] = []
    private let lineEnding: LineEnding
    private let protectsFormulas: Bool

    /// Starts a CSV text whose first row is `header`, with rows ended by `lineEnding`.
    ///
    /// `protectsFormulas` (the default) neutralizes cells that a spreadsheet would run as a formula. Pass `false`
    /// only to copy cells verbatim, such as a sheet pulled from a server that must be compared and pushed back
    /// unchanged; such text must not be handed to a user's spreadsheet as a report.
    public init(header: [String], lineEnding: LineEnding = .crlf, protectsFormulas: Bool = true) {
        self.lineEnding = lineEnding
        self.protectsFormulas = protectsFormulas
        append(header)
    }

    /// Writes one row: each cell neutralized (when the writer protects formulas) and quoted as needed, separated by
    /// commas, then the line ending.
    public mutating func append(_ row: [String]) {
        CSVWriter.appendRow(row, to: &bytes, lineEnding: lineEnding, protectsFormulas: protectsFormulas)
    }

    /// Appends `row` as `append(_:)` writes it to `output`.
    static func appendRow<Output: ByteSink & ~Copyable>(
        _ row: [String], to output: inout Output, lineEnding: LineEnding = .crlf, protectsFormulas: Bool = true
    ) {
        if row.isEmpty || (row.count == 1 && row[0].isEmpty) {
            output.append(ASCII.quote)
            output.append(ASCII.quote)
        } else {
            for index in row.indices {
                if index > 0 { output.append(ASCII.comma) }
                appendField(row[index], to: &output, protectsFormulas: protectsFormulas)
            }
        }
        appendLineEnd(to: &output, lineEnding)
    }

    /// Appends the line ending.
    static func appendLineEnd<Output: ByteSink & ~Copyable>(to output: inout Output, _ lineEnding: LineEnding = .crlf) {
        if lineEnding == .crlf { output.append(ASCII.carriageReturn) }
        output.append(ASCII.lineFeed)
    }

    /// Formula-injection guard (OWASP CSV injection): a cell starting with `=`, `+`, `-`, `@`, tab, CR, LF or NUL
    /// gets a leading `'`, unless it is a plain number such as `-80.4139`, `+12` or `-1.5e-3`.
    public static func neutralized(_ cell: String) -> String {
        CellText.withBytes(of: cell) { needsNeutralizing($0) } ? "'" + cell : cell
    }

    /// The cell as written in a CSV file: neutralized, then quoted with inner quotes doubled when it contains a
    /// comma, a quote, CR or LF.
    public static func field(_ cell: String) -> String {
        var text: [UInt8] = []
        appendField(cell, to: &text, protectsFormulas: true)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the CSV form of `cell` (as `field(_:)` returns it, or without neutralizing) to `output`.
    static func appendField<Output: ByteSink & ~Copyable>(
        _ cell: String, to output: inout Output, protectsFormulas: Bool = true
    ) {
        CellText.withBytes(of: cell) { appendField($0, to: &output, protectsFormulas: protectsFormulas) }
    }

    /// Appends the CSV form of the UTF-8 bytes of one cell (as `field(_:)` writes the text) to `output`.
    static func appendField<Output: ByteSink & ~Copyable>(
        _ cell: UnsafeBufferPointer<UInt8>, to output: inout Output, protectsFormulas: Bool = true
    ) {
        let prefix = protectsFormulas && needsNeutralizing(cell)
        guard needsQuotes(cell) else {
            if prefix { output.append(ASCII.apostrophe) }
            output.append(contentsOf: cell)
            return
        }
        output.append(ASCII.quote)
        if prefix { output.append(ASCII.apostrophe) }
        var runStart = cell.startIndex
        for index in cell.indices where cell[index] == ASCII.quote {
            // Each quote is written twice: once ending the run before it, once starting the next run.
            output.append(contentsOf: UnsafeBufferPointer(rebasing: cell[runStart...index]))
            runStart = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: cell[runStart...]))
        output.append(ASCII.quote)
    }

    /// The bytes that make a cell need quotes (comma, quote, CR, LF), as bits of a mask: all are below 64.
    static let quotingBytes: UInt64 =
        1 << UInt64(ASCII.comma) | 1 << UInt64(ASCII.quote) | 1 << UInt64(ASCII.carriageReturn)
        | 1 << UInt64(ASCII.lineFeed)

    /// Whether a cell holds a comma, a quote, CR or LF, so that it must be quoted.
    ///
    /// Eight bytes are looked at at once: a byte equal to one of the four is a zero byte of the word xor'ed with
    /// that byte repeated. A cell of eight bytes or more ends with a word that overlaps the one before it.
    static func needsQuotes(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = cell.baseAddress, cell.count >= 8 else {
            for byte in cell where byte < 64 && quotingBytes & (1 &<< UInt64(byte)) != 0 { return true }
            return false
        }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 < cell.count {
            if holdsQuotingByte(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
            offset += 8
        }
        return holdsQuotingByte(raw.loadUnaligned(fromByteOffset: cell.count - 8, as: UInt64.self))
    }

    /// Whether one of the eight bytes of `word` is a comma, a quote, CR or LF.
    @inline(__always)
    private static func holdsQuotingByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // A word has a zero byte exactly when subtracting one from each byte borrows into a high bit it lacked.
        func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & (ones &* 0x80) }
        let found =
            zeroBytes(word ^ (ones &* UInt64(ASCII.comma))) | zeroBytes(word ^ (ones &* UInt64(ASCII.quote)))
            | zeroBytes(word ^ (ones &* UInt64(ASCII.carriageReturn)))
            | zeroBytes(word ^ (ones &* UInt64(ASCII.lineFeed)))
        return found != 0
    }

    /// Whether a cell starts with a byte that spreadsheets treat as the start of a formula and is not a number.
    static func needsNeutralizing(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = cell.first else { return false }
        switch first {
        case UInt8(ascii: "="), UInt8(ascii: "@"), 0x09, 0x0D, 0x0A, 0x00:
            return true
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            return !isPlainNumber(cell)
        default:
            return false
        }
    }

    /// Whether the text is a decimal number: optional sign, digits with an optional fraction (at least one digit),
    /// then an optional exponent such as `e-3`.
    private static func isPlainNumber(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = cell.startIndex
        func skipDigits() -> Int {
            let start = index
            while index < cell.endIndex, cell[index] >= UInt8(ascii: "0"), cell[index] <= UInt8(ascii: "9") {
                index += 1
            }
            return index - start
        }
        func skip(_ first: UInt8, _ second: UInt8) -> Bool {
            guard index < cell.endIndex, cell[index] == first || cell[index] == second else { return false }
            index += 1
            return true
        }
        _ = skip(UInt8(ascii: "+"), UInt8(ascii: "-"))
        var digits = skipDigits()
        if skip(UInt8(ascii: "."), UInt8(ascii: ".")) { digits += skipDigits() }
        guard digits > 0 else { return false }
        if skip(UInt8(ascii: "e"), UInt8(ascii: "E")) {
            _ = skip(UInt8(ascii: "+"), UInt8(ascii: "-"))
            guard skipDigits() > 0 else { return false }
        }
        return index == cell.endIndex
    }
}

extension CSVWriter {
    /// Returns the bytes written so far and starts over with an empty buffer, for streaming large tables to a file.
    public mutating func drain() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }
}
