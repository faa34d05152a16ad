/// `changes.csv` as a file `PieceWriter` writes: its blocks of changes (`ChangeTable.blocks`) formatted on all cores
/// and written in order, atomically, as `TableFile` writes the other tables.
final class ChangeTableFile: PieceFile, @unchecked Sendable {
    let path: String
    let pieceCount: Int
    private let rows: ChangeTable.Rows
    private let blocks: [(part: Int, changes: Range<Int>)]
    private let made: ResultSlots<[UInt8]>
    private let synchronizingFolder: Bool
    private var file: AtomicFileWriter?

    /// The file of `changes` at `path`; with `synchronizingFolder` false the folder is left for the caller to
    /// flush (see `AtomicFileWriter.commit`).
    init(_ changes: SheetChanges, to path: String, synchronizingFolder: Bool) {
        self.path = path
        self.synchronizingFolder = synchronizingFolder
        rows = ChangeTable.Rows(changes)
        blocks = ChangeTable.blocks(of: changes)
        // A file without changes is its header alone: one empty piece.
        pieceCount = max(1, blocks.count)
        made = ResultSlots(count: pieceCount)
    }

    func prepare() {}

    func make(piece index: Int) {
        made[index] = index < blocks.count ? rows.block(part: blocks[index].part, blocks[index].changes) : []
    }

    func open() throws(StocktakeError) {
        let file = try AtomicFileWriter(path: path)
        self.file = file
        var header: [UInt8] = []
        CSVWriter.appendRow(ChangeTable.columns, to: &header)
        try file.write(header)
    }

    func write(piece index: Int) throws(StocktakeError) {
        let block = made[index]!
        made[index] = nil
        try file!.write(block)
    }

    /// Starts flushing the complete file to disk, so that it waits for the disk while other work goes on.
    func close() throws(StocktakeError) {
        try file!.startFlushing()
    }

    func commit() throws(StocktakeError) {
        try file!.commit(synchronizingFolder: synchronizingFolder)
        file = nil
    }
}
