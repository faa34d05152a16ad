/// One row of a worksheet being written: its cells go straight into the sheet's XML bytes, typed.
///
/// Cells come in column order, one call per column (`skip()` for an empty one): texts as inline strings (so a
/// tag's leading zeros survive and a text starting with `=` stays text) or as indices into the shared strings,
/// numbers as numbers, dates as date serials shown `yyyy-mm-dd`. Text is escaped for XML 1.0, and the characters
/// XML cannot hold are written as `_xHHHH_`, which Excel and LibreOffice read back as those characters.
///
/// A cell names its column (`r="C2"`) only after an empty one: a cell without a reference is, for every reader
/// (ECMA-376 Part 1, 18.3.1.4), in the column after the previous cell's, and leaving the references out makes the
/// sheet's XML a fifth smaller.
struct WorksheetRow: ~Copyable {
    /// The sheet's XML so far.
    var output: ByteBuffer
    /// The row's number in the sheet (the header is row 1).
    private var rowNumber = 0
    private var column = 0
    /// The column a cell without a reference would be read into: the one after the last cell written.
    private var unreferencedColumn = 0
    /// Whether each column holds identifiers (styled as text). Kept apart from the columns, as are the letters,
    /// because a cell reads them on the hot path, where arrays of arrays and strings cost a retain each.
    private let identifiers: [Bool]
    /// The letters naming each column (`A`, `B`, … `AA`), all in one buffer, and where each column's end.
    private let letterBytes: [UInt8]
    private let letterEnds: [Int]
    /// The widest text seen in each column, in characters, while widths are measured (`nil` when they are not).
    var widths: [Int]?
    /// The width in characters of each shared string, for measuring the cells that refer to them.
    var sharedWidths: [Int] = []

    init(columns: [WorkbookWriter.Column], letters: [[UInt8]], capacity: Int = 0) {
        identifiers = columns.map { $0.kind == .identifier }
        letterBytes = letters.flatMap { $0 }
        var end = 0
        letterEnds = letters.map { letters in
            end += letters.count
            return end
        }
        output = ByteBuffer(capacity: capacity)
    }

    /// Starts row `rowNumber` (1-based).
    mutating func begin(_ rowNumber: Int) {
        self.rowNumber = rowNumber
        column = 0
        unreferencedColumn = 0
        appendAtOnce("<row r=\"", UInt64(rowNumber), "\">")
    }

    /// Ends the row.
    mutating func end() {
        append("</row>")
    }

    /// Leaves the next cell empty.
    mutating func skip() {
        column += 1
    }

    /// A header cell: bold text.
    mutating func header(_ name: String) {
        var name = name
        openCell(" s=\"1\" t=\"inlineStr\"><is><t>")
        name.withUTF8 { Self.appendEscaped($0, to: &output) }
        append("</t></is></c>")
        column += 1
    }

    /// A text cell; `nil` and the empty text leave it empty.
    mutating func text(_ text: String?) {
        guard var text else { return skip() }
        text.withUTF8 { self.text($0) }
    }

    /// A text cell of UTF-8 bytes; no bytes leave it empty.
    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return skip() }
        let first = bytes[0]
        let last = bytes[bytes.count - 1]
        openString(preservingSpace: Self.isSpace(first) || Self.isSpace(last))
        Self.appendEscaped(bytes, to: &output)
        closeString(measuring: bytes)
    }

    /// A text cell whose bytes `write` appends, which must need no escaping and have no space at either end: a tag's
    /// digits, a MAC address's hex.
    mutating func plainText(_ write: (inout ByteBuffer) -> Void) {
        let previousColumn = unreferencedColumn
        openString(preservingSpace: false)
        let start = output.count
        write(&output)
        if start == output.count {
            // Nothing written: no cell after all.
            output.removeLast(output.count - cellStart)
            unreferencedColumn = previousColumn
            return skip()
        }
        if widths != nil { measure(output.count - start) }
        append("</t></is></c>")
        column += 1
    }

    /// A number cell; a number that is not finite is written as its text.
    mutating func number(_ value: Double?) {
        guard let value else { return skip() }
        guard value.isFinite else { return text(GeoPosition.text(value)) }
        openCell("><v>")
        let start = output.count
        CanonicalText.append(degrees: value, to: &output)
        if widths != nil { measure(output.count - start) }
        append("</v></c>")
        column += 1
    }

    /// A number cell holding an amount of money, shown with two decimals.
    mutating func money(_ cost: UnitCost?) {
        guard let cost else { return skip() }
        openCell(" s=\"4\"><v>")
        let start = output.count
        CanonicalText.append(cost, to: &output)
        if widths != nil { measure(output.count - start) }
        append("</v></c>")
        column += 1
    }

    /// A date cell, shown `yyyy-mm-dd`; a day before 1900-01-01 (which Excel cannot show as a date) is its ISO text.
    mutating func date(_ date: InventoryDate?) {
        guard let date else { return skip() }
        guard let serial = Self.serial(of: date) else {
            return plainText { CanonicalText.append(date, to: &$0) }
        }
        if column == unreferencedColumn {
            appendAtOnce("<c s=\"2\"><v>", UInt64(serial), "</v></c>")
            unreferencedColumn = column + 1
        } else {
            openCell(" s=\"2\"><v>")
            appendAtOnce("", UInt64(serial), "</v></c>")
        }
        if widths != nil { measure(10) }
        column += 1
    }

    /// A cell holding the shared string at `index` in the workbook's `SharedStringTable`; a negative index leaves
    /// it empty.
    mutating func shared(_ index: Int32) {
        guard index >= 0 else { return skip() }
        if column == unreferencedColumn {
            // The common case, a cell following the previous one, in one append.
            appendAtOnce(
                identifiers[column] ? "<c s=\"3\" t=\"s\"><v>" : "<c t=\"s\"><v>", UInt64(index), "</v></c>")
            unreferencedColumn = column + 1
        } else {
            openCell(identifiers[column] ? " s=\"3\" t=\"s\"><v>" : " t=\"s\"><v>")
            appendAtOnce("", UInt64(index), "</v></c>")
        }
        if widths != nil { measure(sharedWidths[Int(index)]) }
        column += 1
    }

    /// Excel's serial number of `date` in the 1900 date system (1 is 1900-01-01; Excel counts a 1900-02-29 that
    /// never was, so days from 1900-03-01 on are one more), or `nil` outside 1900-01-01 … 9999-12-31.
    static func serial(of date: InventoryDate) -> Int? {
        // 1899-12-30 is day -25,569.
        let serial = Int(date.daysSinceEpoch) + 25_569
        switch serial {
        case 61...2_958_465: return serial
        case 2...60: return serial - 1
        default: return nil
        }
    }

    // MARK: - Cells

    /// Where the open cell's bytes start, to take it back when it turns out empty.
    private var cellStart = 0

    /// Opens the cell of the current column: `<c`, its reference when the previous column has no cell, then
    /// `rest` (its other attributes, `>` and the start of its contents).
    private mutating func openCell(_ rest: StaticString) {
        cellStart = output.count
        if column == unreferencedColumn {
            // The common case: `<c` and `rest` in one append.
            appendAtOnce("<c", rest)
        } else {
            append("<c r=\"")
            let start = column == 0 ? 0 : letterEnds[column - 1]
            for index in start..<letterEnds[column] { output.append(letterBytes[index]) }
            CanonicalText.append(UInt64(rowNumber), digits: 1, to: &output)
            output.append(UInt8(ascii: "\""))
            append(rest)
        }
        unreferencedColumn = column + 1
    }

    private mutating func openString(preservingSpace: Bool) {
        if identifiers[column] {
            openCell(
                preservingSpace
                    ? " s=\"3\" t=\"inlineStr\"><is><t xml:space=\"preserve\">" : " s=\"3\" t=\"inlineStr\"><is><t>")
        } else {
            openCell(preservingSpace ? " t=\"inlineStr\"><is><t xml:space=\"preserve\">" : " t=\"inlineStr\"><is><t>")
        }
    }

    private mutating func closeString(measuring bytes: UnsafeBufferPointer<UInt8>) {
        append("</t></is></c>")
        if widths != nil {
            // Characters, roughly: every byte that does not continue a UTF-8 sequence.
            measure(bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) })
        }
        column += 1
    }

    private mutating func measure(_ characters: Int) {
        widths![column] = max(widths![column], characters)
    }

    /// Appends `prefix`, the decimal digits of `value` and `suffix` in one append: one capacity check for the three.
    private mutating func appendAtOnce(_ prefix: StaticString, _ value: UInt64, _ suffix: StaticString) {
        let prefixCount = prefix.utf8CodeUnitCount
        let suffixCount = suffix.utf8CodeUnitCount
        let digits = DecimalDigits.count(value)
        output.append(atMost: prefixCount + digits + suffixCount) { pointer in
            ShortCopy.copy(from: prefix.utf8Start, to: pointer, count: prefixCount)
            DecimalDigits.write(value, count: digits, to: pointer + prefixCount)
            ShortCopy.copy(from: suffix.utf8Start, to: pointer + prefixCount + digits, count: suffixCount)
            return prefixCount + digits + suffixCount
        }
    }

    /// Appends `first` and then `second` in one append.
    private mutating func appendAtOnce(_ first: StaticString, _ second: StaticString) {
        let firstCount = first.utf8CodeUnitCount
        let secondCount = second.utf8CodeUnitCount
        output.append(atMost: firstCount + secondCount) { pointer in
            ShortCopy.copy(from: first.utf8Start, to: pointer, count: firstCount)
            ShortCopy.copy(from: second.utf8Start, to: pointer + firstCount, count: secondCount)
            return firstCount + secondCount
        }
    }

    private mutating func append(_ text: StaticString) {
        output.append(text)
    }

    /// Whether `byte` is XML white space, which a reader drops at either end of a text not marked to keep it.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    // MARK: - Escaping

    /// Appends UTF-8 text as XML character data: `&`, `<` and `>` as entities, a carriage return as `&#13;` (a
    /// parser would turn a raw one into a line feed), the characters XML 1.0 cannot hold (controls other than tab,
    /// line feed and carriage return; U+FFFE and U+FFFF) as `_xHHHH_`, and the `_` of a literal `_xHHHH_` as
    /// `_x005F_`, so that reading the escapes back gives the text as it was.
    static func appendEscaped<Output: ByteSink & ~Copyable>(
        _ bytes: UnsafeBufferPointer<UInt8>, to output: inout Output
    ) {
        var clean = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            // Bytes that never need care are copied in runs.
            guard byte < 0x20 || byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x5F || byte == 0xEF else {
                index += 1
                continue
            }
            var replacement: [UInt8]? = nil
            var length = 1
            switch byte {
            case UInt8(ascii: "&"): replacement = Array("&amp;".utf8)
            case UInt8(ascii: "<"): replacement = Array("&lt;".utf8)
            case UInt8(ascii: ">"): replacement = Array("&gt;".utf8)
            case 0x0D: replacement = Array("&#13;".utf8)
            case 0x09, 0x0A: break
            case 0x00..<0x20: replacement = escape(UInt16(byte))
            case UInt8(ascii: "_"):
                if isEscapeLike(bytes, at: index) { replacement = Array("_x005F_".utf8) }
            case 0xEF:
                // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
                if index + 2 < bytes.count, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
                    replacement = escape(0xFFFE + UInt16(bytes[index + 2] - 0xBE))
                    length = 3
                }
            default: break
            }
            if let replacement {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<index]))
                replacement.withUnsafeBufferPointer { output.append(contentsOf: $0) }
                clean = index + length
            }
            index += length
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<bytes.count]))
    }

    /// `_xHHHH_` for the UTF-16 unit `unit`.
    private static func escape(_ unit: UInt16) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        return Array("_x".utf8) + (0..<4).map { digits[Int(unit >> (12 - 4 * $0) & 0xF)] } + [UInt8(ascii: "_")]
    }

    /// Whether `_xHHHH_` (four hexadecimal digits, either case) starts at `index`.
    private static func isEscapeLike(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index + 6 < bytes.count, bytes[index + 1] == UInt8(ascii: "x"), bytes[index + 6] == UInt8(ascii: "_")
        else { return false }
        return (2...5).allSatisfy { offset in
            let byte = bytes[index + offset]
            return (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }
    }
}
