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
        if row.isEmpty || (row.count == 1 && row[0].isEmpty) {
            bytes.append(ASCII.quote)
            bytes.append(ASCII.quote)
        } else {
            for (index, cell) in row.enumerated() {
                if index > 0 { bytes.append(ASCII.comma) }
                CSVWriter.appendField(cell, to: &bytes, protectsFormulas: protectsFormulas)
            }
        }
        if lineEnding == .crlf { bytes.append(ASCII.carriageReturn) }
        bytes.append(ASCII.lineFeed)
    }

    /// Formula-injection guard (OWASP CSV injection): a cell starting with `=`, `+`, `-`, `@`, tab, CR, LF or NUL
    /// gets a leading `'`, unless it is a plain number such as `-80.4139`, `+12` or `-1.5e-3`.
    public static func neutralized(_ cell: String) -> String {
        needsNeutralizing(cell.utf8) ? "'" + cell : cell
    }

    /// The cell as written in a CSV file: neutralized, then quoted with inner quotes doubled when it contains a
    /// comma, a quote, CR or LF.
    public static func field(_ cell: String) -> String {
        var text: [UInt8] = []
        appendField(cell, to: &text, protectsFormulas: true)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the CSV form of `cell` (as `field(_:)` returns it, or without neutralizing) to `output`.
    private static func appendField(_ cell: String, to output: inout [UInt8], protectsFormulas: Bool) {
        let utf8 = cell.utf8
        let prefix: UInt8? = protectsFormulas && needsNeutralizing(utf8) ? ASCII.apostrophe : nil
        let needsQuotes = utf8.contains { byte in
            byte == ASCII.comma || byte == ASCII.quote || byte == ASCII.carriageReturn || byte == ASCII.lineFeed
        }
        guard needsQuotes else {
            if let prefix { output.append(prefix) }
            output.append(contentsOf: utf8)
            return
        }
        output.append(ASCII.quote)
        if let prefix { output.append(prefix) }
        for byte in utf8 {
            output.append(byte)
            if byte == ASCII.quote { output.append(ASCII.quote) }
        }
        output.append(ASCII.quote)
    }

    /// Whether a cell starts with a byte that spreadsheets treat as the start of a formula and is not a number.
    private static func needsNeutralizing(_ utf8: String.UTF8View) -> Bool {
        guard let first = utf8.first else { return false }
        switch first {
        case UInt8(ascii: "="), UInt8(ascii: "@"), 0x09, 0x0D, 0x0A, 0x00:
            return true
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            return !isPlainNumber(utf8)
        default:
            return false
        }
    }

    /// Whether the text is a decimal number: optional sign, digits with an optional fraction (at least one digit),
    /// then an optional exponent such as `e-3`.
    private static func isPlainNumber(_ utf8: String.UTF8View) -> Bool {
        var index = utf8.startIndex
        func skipDigits() -> Int {
            var count = 0
            while index < utf8.endIndex, utf8[index] >= UInt8(ascii: "0"), utf8[index] <= UInt8(ascii: "9") {
                index = utf8.index(after: index)
                count += 1
            }
            return count
        }
        func skip(_ bytes: UInt8...) -> Bool {
            guard index < utf8.endIndex, bytes.contains(utf8[index]) else { return false }
            index = utf8.index(after: index)
            return true
        }
        _ = skip(UInt8(ascii: "+"), UInt8(ascii: "-"))
        var digits = skipDigits()
        if skip(UInt8(ascii: ".")) { digits += skipDigits() }
        guard digits > 0 else { return false }
        if skip(UInt8(ascii: "e"), UInt8(ascii: "E")) {
            _ = skip(UInt8(ascii: "+"), UInt8(ascii: "-"))
            guard skipDigits() > 0 else { return false }
        }
        return index == utf8.endIndex
    }
}

extension CSVWriter {
    /// Returns the bytes written so far and starts over with an empty buffer, for streaming large tables to a file.
    public mutating func drain() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }
}
