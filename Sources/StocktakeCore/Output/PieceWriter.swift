import Dispatch
import Foundation

/// Writes several files at once from pieces made on all cores, so that the cores stay busy while the run's outputs
/// are written: the rows of `cleaned.csv` are formatted while blocks of `cleaned.xlsx` deflate.
///
/// Workers take jobs (a file's preparation or one of its pieces) in the order given; whoever makes a piece also
/// writes every piece of that file that is made and next in line, so the pieces waiting in memory are few. A file
/// starts flushing as soon as it is complete; it is committed (its flush waited for, then renamed) once every job
/// is taken and every file before it is committed, so the files take their names in the order given, as if written
/// one after another, and no worker waits for the disk while there is work to do.
///
/// When a file fails, the files before it are still finished and committed, and the files after it are abandoned
/// (their temporary files removed, the files of an earlier run under their names untouched): what a failure leaves
/// is what writing the files one after another would have left, and its error is the one thrown.
enum PieceWriter {
    /// One job: a file's preparation (`piece` -1) or one of its pieces.
    struct Job: Equatable {
        var file: Int
        var piece: Int
    }

    /// Writes `files` in the order of `jobs` (by default, each file's preparation and pieces after the previous
    /// file's), on `threads` workers. `jobs` must name every piece of every file once.
    ///
    /// With `pending`, the files are not committed here: once written they are added to it, flushing, to take their
    /// names when it is committed. When a file fails, the files before it are added (they would have been committed)
    /// and its error is thrown; the caller then commits `pending` before passing the error on.
    static func write(
        _ files: [any PieceFile], jobs: [Job]? = nil, threads: Int = Parallel.threads,
        deferringTo pending: PendingOutputs? = nil
    ) throws(StocktakeError) {
        let jobs =
            jobs ?? files.indices.flatMap { file in (-1..<files[file].pieceCount).map { Job(file: file, piece: $0) } }
        precondition(
            jobs.filter { $0.piece >= 0 }.count == files.reduce(0) { $0 + $1.pieceCount },
            "the jobs name every piece of every file once")
        let run = Run(files: files, jobs: jobs, commits: pending == nil)
        DispatchQueue.concurrentPerform(iterations: max(1, threads)) { _ in run.work() }
        if let failure = run.failure {
            pending?.add(files[..<failure.file])
            throw failure.error
        }
        pending?.add(files)
    }

    /// The state of one `write`, shared by its workers.
    private final class Run: @unchecked Sendable {
        let files: [any PieceFile]
        let jobs: [Job]
        /// Guards everything below.
        let lock = NSLock()
        var nextJob = 0
        /// The first file (in order) that failed, and its error.
        var failure: (file: Int, error: StocktakeError)?
        /// Per file: which pieces are made, the next piece to write, whether a worker is writing it, whether all its
        /// pieces are written.
        var made: [[Bool]]
        var nextPiece: [Int]
        var isWriting: [Bool]
        var isComplete: [Bool]
        /// The next file to commit, and whether a worker is committing.
        var nextCommit = 0
        var isCommitting = false
        /// Whether complete files are committed here (false: the caller commits them later).
        let commits: Bool

        init(files: [any PieceFile], jobs: [Job], commits: Bool) {
            self.files = files
            self.jobs = jobs
            self.commits = commits
            made = files.map { Array(repeating: false, count: $0.pieceCount) }
            nextPiece = Array(repeating: 0, count: files.count)
            isWriting = Array(repeating: false, count: files.count)
            isComplete = Array(repeating: false, count: files.count)
        }

        /// Takes jobs until none is left.
        func work() {
            while true {
                let job: Job? = lock.withLock {
                    while nextJob < jobs.count {
                        let job = jobs[nextJob]
                        nextJob += 1
                        if !hasFailed(upTo: job.file) { return job }
                    }
                    return nil
                }
                guard let job else {
                    commitCompleteFiles()
                    return
                }
                if job.piece < 0 {
                    files[job.file].prepare()
                } else {
                    files[job.file].make(piece: job.piece)
                    writeMadePieces(of: job.file, made: job.piece)
                }
            }
        }

        /// Whether `file` or a file before it has failed (so `file` is abandoned).
        private func hasFailed(upTo file: Int) -> Bool {
            failure.map { $0.file <= file } ?? false
        }

        private func fail(_ file: Int, _ error: StocktakeError) {
            if failure == nil || file < failure!.file { failure = (file, error) }
        }

        /// Notes that piece `piece` of `file` is made, then, unless another worker is writing the file, writes its
        /// pieces that are made and next in line; commits what can be once the file is complete.
        private func writeMadePieces(of file: Int, made piece: Int) {
            let isWriter: Bool = lock.withLock {
                made[file][piece] = true
                guard !isWriting[file] else { return false }
                isWriting[file] = true
                return true
            }
            guard isWriter else { return }
            let target = files[file]
            while true {
                let next: Int? = lock.withLock {
                    let next = nextPiece[file]
                    guard !hasFailed(upTo: file), next < made[file].count, made[file][next] else {
                        isWriting[file] = false
                        return nil
                    }
                    return next
                }
                guard let next else { return }
                do throws(StocktakeError) {
                    if next == 0 { try target.open() }
                    try target.write(piece: next)
                    if next == target.pieceCount - 1 { try target.close() }
                } catch {
                    lock.withLock {
                        fail(file, error)
                        isWriting[file] = false
                    }
                    return
                }
                let isDone: Bool = lock.withLock {
                    nextPiece[file] = next + 1
                    guard next + 1 == target.pieceCount else { return false }
                    isComplete[file] = true
                    isWriting[file] = false
                    return true
                }
                if isDone {
                    // With jobs left, the worker goes on to them; the files are committed once none is left.
                    if lock.withLock({ nextJob >= jobs.count }) { commitCompleteFiles() }
                    return
                }
            }
        }

        /// Commits, in order, the complete files whose turn it is, unless another worker is doing so.
        private func commitCompleteFiles() {
            guard commits else { return }
            let isCommitter: Bool = lock.withLock {
                guard !isCommitting else { return false }
                isCommitting = true
                return true
            }
            guard isCommitter else { return }
            while true {
                let file: Int? = lock.withLock {
                    guard nextCommit < files.count, isComplete[nextCommit], !hasFailed(upTo: nextCommit) else {
                        isCommitting = false
                        return nil
                    }
                    return nextCommit
                }
                guard let file else { return }
                do throws(StocktakeError) {
                    try files[file].commit()
                } catch {
                    lock.withLock {
                        fail(file, error)
                        isCommitting = false
                    }
                    return
                }
                lock.withLock { nextCommit = file + 1 }
            }
        }
    }
}
