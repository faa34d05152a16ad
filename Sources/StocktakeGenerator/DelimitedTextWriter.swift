/// Writes rows of delimited text (CSV or TSV) the way spreadsheet programs do.
///
/// A cell is quoted, with inner quotes doubled, when it holds the separator, a quote, a carriage return or a
/// line feed; other cells, including ones with blanks around them, are written as they are.
enum DelimitedTextWriter {
    /// One line of cells joined by `separator`, without the line end.
    static func line(_ cells: [String], separator: Character) -> String {
        var bytes: [UInt8] = []
        append(cells, separator: separator.asciiValue ?? UInt8(ascii: ","), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends one line of cells joined by `separator` to `buffer`, without the line end.
    static func append(_ cells: [String], separator: UInt8, to buffer: inout [UInt8]) {
        for (index, cell) in cells.enumerated() {
            if index > 0 {
                buffer.append(separator)
            }
            var text = cell
            text.withUTF8 { appendCell($0, separator: separator, to: &buffer) }
        }
    }

    private static func appendCell(_ cell: UnsafeBufferPointer<UInt8>, separator: UInt8, to buffer: inout [UInt8]) {
        let quote = UInt8(ascii: "\"")
        let needsQuotes = cell.contains {
            $0 == separator || $0 == quote || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n")
        }
        guard needsQuotes else {
            buffer.append(contentsOf: cell)
            return
        }
        buffer.append(quote)
        for byte in cell {
            buffer.append(byte)
            if byte == quote {
                buffer.append(quote)
            }
        }
        buffer.append(quote)
    }
}
