import Dispatch

/// Writes a CSV table a block of rows at a time: into memory, or atomically into a file without holding it whole.
///
/// Rows are appended as bytes by the table (`row(index, &output)`), so typed values go straight into the output.
/// A large table is written to its file from both cores: each batch of rows is split in two halves formatted
/// concurrently, and the halves are written in order.
enum TableFile {
    /// The rows each core formats at a time.
    static let rowsPerPart = 16_384

    /// The table's bytes.
    static func bytes(header: [String], rowCount: Int, row: (Int, inout [UInt8]) -> Void) -> [UInt8] {
        var bytes: [UInt8] = []
        CSVWriter.appendRow(header, to: &bytes)
        for index in 0..<rowCount { row(index, &bytes) }
        return bytes
    }

    /// The bytes of a table whose rows are cells of text.
    static func bytes(header: [String], rowCount: Int, row: (Int) -> [String]) -> [UInt8] {
        bytes(header: header, rowCount: rowCount) { CSVWriter.appendRow(row($0), to: &$1) }
    }

    /// Writes the table to `path` atomically, formatting rows on both cores; `row` is called from both. With
    /// `synchronizingFolder` false the folder is left for the caller to flush (see `AtomicFileWriter.commit`).
    static func write(
        header: [String], rowCount: Int, row: @Sendable (Int, inout [UInt8]) -> Void, to path: String,
        synchronizingFolder: Bool = true
    ) throws(StocktakeError) {
        let file = try AtomicFileWriter(path: path)
        var headerLine: [UInt8] = []
        CSVWriter.appendRow(header, to: &headerLine)
        try file.write(headerLine)
        var start = 0
        while start < rowCount {
            let end = min(rowCount, start + 2 * rowsPerPart)
            let parts = Parallel.threads > 1 && end - start > rowsPerPart / 4 ? 2 : 1
            let bounds = (0...parts).map { start + (end - start) * $0 / parts }
            let blocks = ResultSlots<[UInt8]>(count: parts)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                var block: [UInt8] = []
                block.reserveCapacity((bounds[part + 1] - bounds[part]) * 128)
                for index in bounds[part]..<bounds[part + 1] { row(index, &block) }
                blocks[part] = block
            }
            for part in 0..<parts { try file.write(blocks[part]!) }
            start = end
        }
        try file.commit(synchronizingFolder: synchronizingFolder)
    }

    /// Writes a table whose rows are cells of text to `path` atomically, a block of rows at a time; with
    /// `synchronizingFolder` false the folder is left for the caller to flush.
    static func write(
        header: [String], rowCount: Int, row: (Int) -> [String], to path: String, synchronizingFolder: Bool = true
    ) throws(StocktakeError) {
        let file = try AtomicFileWriter(path: path)
        var block: [UInt8] = []
        CSVWriter.appendRow(header, to: &block)
        for index in 0..<rowCount {
            CSVWriter.appendRow(row(index), to: &block)
            if block.count >= 1 << 20 {
                try file.write(block)
                block.removeAll(keepingCapacity: true)
            }
        }
        try file.write(block)
        try file.commit(synchronizingFolder: synchronizingFolder)
    }
}
