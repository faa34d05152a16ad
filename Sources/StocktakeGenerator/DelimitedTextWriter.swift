/// Writes rows of delimited text (CSV or TSV) the way spreadsheet programs do.
enum DelimitedTextWriter {
    /// One line of cells joined by `separator`, without the line end. A cell is quoted, with inner quotes
    /// doubled, when it holds the separator, a quote, a carriage return or a line feed; other cells, including
    /// ones with blanks around them, are written as they are.
    static func line(_ cells: [String], separator: Character) -> String {
        cells.map { quotedIfNeeded($0, separator: separator) }.joined(separator: String(separator))
    }

    /// The cell as it appears in the file.
    static func quotedIfNeeded(_ cell: String, separator: Character) -> String {
        let needsQuotes = cell.contains { $0 == separator || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard needsQuotes else {
            return cell
        }
        var quoted = "\""
        for character in cell {
            quoted.append(character)
            if character == "\"" {
                quoted.append("\"")
            }
        }
        quoted.append("\"")
        return quoted
    }
}
