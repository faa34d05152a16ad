/// Writes a CSV table a block of rows at a time: into memory, or atomically into a file without holding it whole.
///
/// Rows are appended as bytes by the table (`row(index, &output)`), so typed values go straight into the output.
enum TableFile {
    /// The table's bytes.
    static func bytes(header: [String], rowCount: Int, row: (Int, inout [UInt8]) -> Void) -> [UInt8] {
        var bytes: [UInt8] = []
        blocks(header: header, rowCount: rowCount, row: row) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// The bytes of a table whose rows are cells of text.
    static func bytes(header: [String], rowCount: Int, row: (Int) -> [String]) -> [UInt8] {
        bytes(header: header, rowCount: rowCount) { CSVWriter.appendRow(row($0), to: &$1) }
    }

    /// Writes the table to `path` atomically.
    static func write(header: [String], rowCount: Int, row: (Int, inout [UInt8]) -> Void, to path: String)
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

    /// Writes a table whose rows are cells of text to `path` atomically.
    static func write(header: [String], rowCount: Int, row: (Int) -> [String], to path: String)
        throws(StocktakeError)
    {
        try write(header: header, rowCount: rowCount, row: { CSVWriter.appendRow(row($0), to: &$1) }, to: path)
    }

    /// The size of the blocks handed to `output`.
    static let blockSize = 1 << 20

    private static func blocks(
        header: [String], rowCount: Int, row: (Int, inout [UInt8]) -> Void, output: ([UInt8]) -> Void
    ) {
        var block: [UInt8] = []
        block.reserveCapacity(blockSize + blockSize / 4)
        CSVWriter.appendRow(header, to: &block)
        for index in 0..<rowCount {
            row(index, &block)
            if block.count >= blockSize {
                output(block)
                block.removeAll(keepingCapacity: true)
            }
        }
        output(block)
    }
}
