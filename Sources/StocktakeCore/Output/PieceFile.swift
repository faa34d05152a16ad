/// A file whose contents are pieces made independently, on any thread, and written in order (see `PieceWriter`):
/// a CSV table's blocks of rows, a workbook's blocks of sheet rows deflated apart.
///
/// `PieceWriter` calls `prepare` and `make(piece:)` from several threads at once, and `open`, `write(piece:)`,
/// `close` and `commit` one at a time, in that order.
protocol PieceFile: AnyObject, Sendable {
    /// How many pieces the file has: at least one.
    var pieceCount: Int { get }
    /// Does the work every piece needs first (the shared strings of a workbook), once; `make(piece:)` waits for it.
    func prepare()
    /// Makes piece `index` and keeps it until `write(piece:)`.
    func make(piece index: Int)
    /// Opens the file (a temporary file next to its path) and writes what comes before the first piece.
    func open() throws(StocktakeError)
    /// Writes piece `index`, made already, and forgets it.
    func write(piece index: Int) throws(StocktakeError)
    /// Writes what comes after the last piece and starts flushing the file to disk (see
    /// `AtomicFileWriter.startFlushing`).
    func close() throws(StocktakeError)
    /// Waits until the file's bytes are on disk and gives it its name (see `AtomicFileWriter.commit`).
    func commit() throws(StocktakeError)
}
