/// Writes a CSV table a block of rows at a time: into memory, or atomically into a file without holding it whole.
enum TableFile {
    /// The table's bytes.
    static func bytes(header: [String], rowCount: Int, row: (Int) -> [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        blocks(header: header, rowCount: rowCount, row: row) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Writes the table to `path` atomically.
    static func write(header: [String], rowCount: Int, row: (Int) -> [String], to path: String)
        throws(StocktakeError)
    {
        let file = try AtomicFileWriter(path: path)
        var failure: StocktakeError?
        blocks(header: header, rowCount: rowCount, row: row) { block in
            guard failure == nil else { return }
            do throws(StocktakeError) { try file.write(block) } catch { failure = error }
        }
        if let failure { throw failure }
        try file.commit()
    }

    private static func blocks(
        header: [String], rowCount: Int, row: (Int) -> [String], output: ([UInt8]) -> Void
    ) {
        var writer = CSVWriter(header: header)
        for index in 0..<rowCount {
            writer.append(row(index))
            if writer.bytes.count >= 1 << 20 { output(writer.drain()) }
        }
        output(writer.drain())
    }
}
