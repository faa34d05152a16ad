/// Renders the planned rows of one source file as the bytes of the file, and says where each marked row went.
enum SourceFileWriter {
    /// The rendered file.
    struct Rendered {
        /// The file's bytes.
        var bytes: [UInt8]
        /// The 1-based data row (header and blank lines not counted) of each marked row.
        var rowNumbers: [Int: Int]
    }

    /// Sorts `rows` by their order keys and writes header and rows with the file's separator, line ends,
    /// byte order mark and stray blank lines.
    static func render(_ file: SourceFile, rows: [PlannedRow]) -> Rendered {
        let columns = file.columns
        let lineEnd = file.usesCRLF ? "\r\n" : "\n"
        var text = DelimitedTextWriter.line(columns.map(\.header), separator: file.separator) + lineEnd
        var rowNumbers: [Int: Int] = [:]
        let sorted = rows.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }
        for (position, entry) in sorted.enumerated() {
            let row = entry.element
            let cells = columns.map { row.cells[$0.column] ?? "" }
            text += DelimitedTextWriter.line(cells, separator: file.separator) + lineEnd
            if let marker = row.marker {
                rowNumbers[marker] = position + 1
            }
            if let interval = file.blankLineInterval, (position + 1) % interval == 0 {
                text += lineEnd
            }
        }
        if file.blankLineInterval != nil {
            text += lineEnd + lineEnd
        }
        var bytes: [UInt8] = file.hasByteOrderMark ? [0xEF, 0xBB, 0xBF] : []
        bytes.append(contentsOf: Array(text.utf8))
        return Rendered(bytes: bytes, rowNumbers: rowNumbers)
    }
}
