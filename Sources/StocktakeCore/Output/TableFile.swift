/// Writes a CSV table a block of rows at a time: into memory, or atomically into a file without holding it whole.
///
/// Rows are appended as bytes by the table (`row(index, &output)`), so typed values go straight into the output.
/// A large table is written to its file from all cores: blocks of rows are formatted concurrently (see
/// `PieceWriter`) and written in order. A `TableFile` is one such file, which `PieceWriter` can write alongside
/// others.
final class TableFile: PieceFile, @unchecked Sendable {
    /// The rows formatted at a time.
    static let rowsPerPart = 4_096

    let path: String
    let pieceCount: Int
    private let header: [String]
    /// Formats a piece's rows as bytes; called from several threads at once.
    private let block: @Sendable (Int) -> ByteBuffer
    /// The pieces made and not yet written, each in the buffer it was formatted in.
    private let blocks: ResultSlots<ByteBufferBox>
    private let synchronizingFolder: Bool
    private var file: AtomicFileWriter?

    /// A table of `rowCount` rows to write to `path` atomically; `row` is called from several threads at once.
    /// With `synchronizingFolder` false the folder is left for the caller to flush (see `AtomicFileWriter.commit`).
    convenience init(
        header: [String], rowCount: Int, row: @escaping @Sendable (Int, inout ByteBuffer) -> Void, to path: String,
        synchronizingFolder: Bool = false
    ) {
        self.init(
            header: header, rowCount: rowCount, rows: { rows, block in for index in rows { row(index, &block) } },
            to: path, synchronizingFolder: synchronizingFolder)
    }

    /// A table of `rowCount` rows to write to `path` atomically; `rows` appends a block's rows, and is called from
    /// several threads at once. With `synchronizingFolder` false the folder is left for the caller to flush.
    /// `bytesPerRow` sizes the first block: a row seldom longer, so that the block is allocated once, not grown
    /// (and copied) on the way; memory past what is written is never touched.
    convenience init(
        header: [String], rowCount: Int, bytesPerRow: Int = 128,
        rows: @escaping @Sendable (Range<Int>, inout ByteBuffer) -> Void, to path: String,
        synchronizingFolder: Bool = false
    ) {
        // The size of the last block made, so the next one is allocated once at about its size, not grown.
        let lastBlockSize = ResultSlots<Int>(count: 1)
        let pieces = max(1, (rowCount + Self.rowsPerPart - 1) / Self.rowsPerPart)
        self.init(header: header, pieceCount: pieces, to: path, synchronizingFolder: synchronizingFolder) { index in
            let range = (index * Self.rowsPerPart)..<min(rowCount, (index + 1) * Self.rowsPerPart)
            var block = ByteBuffer(capacity: max(range.count * bytesPerRow, (lastBlockSize[0] ?? 0) * 9 / 8))
            rows(range, &block)
            lastBlockSize[0] = block.count
            return block
        }
    }

    /// A table of `pieceCount` pieces after its header, each formatted by `block` (called from several threads at
    /// once), to write to `path` atomically.
    init(
        header: [String], pieceCount: Int, to path: String, synchronizingFolder: Bool,
        block: @escaping @Sendable (Int) -> ByteBuffer
    ) {
        self.path = path
        self.synchronizingFolder = synchronizingFolder
        self.header = header
        self.pieceCount = pieceCount
        self.block = block
        blocks = ResultSlots(count: pieceCount)
    }

    func prepare() {}

    func make(piece index: Int) {
        blocks[index] = ByteBufferBox(block(index))
    }

    func open() throws(StocktakeError) {
        let file = try AtomicFileWriter(path: path)
        self.file = file
        var headerLine: [UInt8] = []
        CSVWriter.appendRow(header, to: &headerLine)
        try file.write(headerLine)
    }

    func write(piece index: Int) throws(StocktakeError) {
        let block = blocks[index]!
        blocks[index] = nil
        let file = file!
        try block.buffer.withUnsafeBytes { (bytes) throws(StocktakeError) in try file.write(bytes) }
    }

    /// Starts flushing the complete file to disk, so that it waits for the disk while the other files are made.
    func close() throws(StocktakeError) {
        try file!.startFlushing()
    }

    func commit() throws(StocktakeError) {
        try file!.commit(synchronizingFolder: synchronizingFolder)
        file = nil
    }

    /// The table's bytes.
    static func bytes(header: [String], rowCount: Int, row: (Int, inout ByteBuffer) -> Void) -> [UInt8] {
        var bytes = ByteBuffer()
        CSVWriter.appendRow(header, to: &bytes)
        for index in 0..<rowCount { row(index, &bytes) }
        return bytes.bytes
    }

    /// The bytes of a table whose rows are cells of text.
    static func bytes(header: [String], rowCount: Int, row: (Int) -> [String]) -> [UInt8] {
        bytes(header: header, rowCount: rowCount) { CSVWriter.appendRow(row($0), to: &$1) }
    }

    /// Writes the table to `path` atomically, formatting rows on all cores; `row` is called from several threads
    /// at once. With `synchronizingFolder` false the folder is left for the caller to flush (see
    /// `AtomicFileWriter.commit`).
    static func write(
        header: [String], rowCount: Int, row: @escaping @Sendable (Int, inout ByteBuffer) -> Void, to path: String,
        synchronizingFolder: Bool = true
    ) throws(StocktakeError) {
        try PieceWriter.write([
            TableFile(
                header: header, rowCount: rowCount, row: row, to: path, synchronizingFolder: synchronizingFolder)
        ])
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
