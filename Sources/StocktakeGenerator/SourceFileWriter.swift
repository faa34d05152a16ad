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
        let separator = file.separator.asciiValue ?? UInt8(ascii: ",")
        let lineEnd: [UInt8] = file.usesCRLF ? [0x0D, 0x0A] : [0x0A]
        var bytes: [UInt8] = file.hasByteOrderMark ? [0xEF, 0xBB, 0xBF] : []
        bytes.reserveCapacity(rows.count * 96)
        DelimitedTextWriter.append(columns.map(\.header), separator: separator, to: &bytes)
        bytes.append(contentsOf: lineEnd)
        var rowNumbers: [Int: Int] = [:]
        // Sort positions rather than rows, so that the rows' cell dictionaries are not copied around.
        let sorted = rows.indices.sorted { (rows[$0].order, $0) < (rows[$1].order, $1) }
        var cells = [String](repeating: "", count: columns.count)
        for (position, index) in sorted.enumerated() {
            let row = rows[index]
            for (column, entry) in columns.enumerated() {
                cells[column] = row.cells[entry.column] ?? ""
            }
            DelimitedTextWriter.append(cells, separator: separator, to: &bytes)
            bytes.append(contentsOf: lineEnd)
            if let marker = row.marker {
                rowNumbers[marker] = position + 1
            }
            if let interval = file.blankLineInterval, (position + 1) % interval == 0 {
                bytes.append(contentsOf: lineEnd)
            }
        }
        if file.blankLineInterval != nil {
            bytes.append(contentsOf: lineEnd + lineEnd)
        }
        return Rendered(bytes: bytes, rowNumbers: rowNumbers)
    }
}
