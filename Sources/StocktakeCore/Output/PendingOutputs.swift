/// Output files whose bytes are all written and on their way to disk, waiting to take their names: the tables
/// while the write-back is planned, `changes.csv` while the reports are made.
///
/// A file's flush waits for the disk (about a millisecond here, 3.5 ms on a cloud volume). Committing each step's
/// files at the end of the step made the run wait for the disk between the steps, with nothing to do; handed on,
/// the flushes run while the next step computes, and the files take their names later, in the same order, still
/// each only once its bytes are on disk. Whoever holds them commits them before anything that needs them in place:
/// a push of the central sheet, the reports, or the error of a later step (so that a failure leaves what it left
/// when each step committed its own files).
///
/// One thread uses it, the one running the pipeline; the flushes themselves run on threads of their own.
final class PendingOutputs {
    private var files: [any PieceFile] = []

    /// Whether no file is waiting.
    var isEmpty: Bool { files.isEmpty }

    /// Adds files written and closed (flushing), to take their names after the files added before them.
    func add(_ files: some Sequence<any PieceFile>) {
        self.files.append(contentsOf: files)
    }

    /// Waits for each file's flush and gives it its name, in the order the files were added. When one fails, its
    /// error is thrown and the files after it never take their names (their temporary files are removed); the files
    /// before it keep theirs. Nothing is left waiting either way.
    func commit() throws(StocktakeError) {
        while !files.isEmpty {
            let file = files.removeFirst()
            do {
                try file.commit()
            } catch {
                files.removeAll()
                throw error
            }
        }
    }
}
