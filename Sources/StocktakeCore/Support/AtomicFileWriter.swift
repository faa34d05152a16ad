import CFile
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written piece by piece that appears at its path only when complete (see `AtomicFile`).
///
/// Large outputs stream through it, so writing a million-row table never holds the whole file in memory. If the
/// writer is dropped before `commit()`, the temporary file is removed and the old file stays as it was.
///
/// The temporary file is created next to `path` under a name nobody can guess (`PartialFileName`), exclusively and
/// without following links, so a link planted in a shared folder cannot redirect the write to another file. Its
/// permissions and owner are set on the open file, never by path.
public final class AtomicFileWriter {
    public let path: String
    /// The temporary file's path, `<folder>/.<name>.stocktake-<pid>-<random>.partial`.
    public let temporaryPath: String
    let folder: String
    private let mode: mode_t?
    private let owner: uid_t?
    private let group: gid_t?
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    /// The flush `startFlushing()` began, until `commit()` has waited for it.
    private var flushing: Flush?
    /// Whether the file's bytes are on disk (its flush waited for).
    private var isFlushed = false
    /// Whether the file has its name (`takeNameFlushingLater()`) while its descriptor is still open.
    private var isNamed = false
    private let bufferSize = 1 << 20
    /// The bytes written to the file so far, and where the part not yet sent on to disk starts.
    private var written = 0
    private var writebackStart = 0
    /// Whether the file's pages leave the page cache once its bytes are on disk (see `init`).
    let releasesCache: Bool
    /// Starts sending a range of the file to disk (`descriptor`, offset, length); tests record the calls.
    var startWriteback: (Int32, Int, Int) -> Void = { descriptor, offset, length in
        _ = stocktake_start_writeback(descriptor, Int64(offset), Int64(length))
    }

    /// Every this many bytes written, they are sent on to disk without waiting (`startWriteback`). A large output
    /// (`cleaned.csv`, `changes.csv` of a million assets: hundreds of MB) then reaches the disk while the rest of
    /// the run goes on, and its flush before it takes its name waits milliseconds instead of a tenth of a second.
    static let writebackSize = 8 << 20

    /// How many random names are tried before giving up when each one is already taken.
    public static let attempts = 5

    /// Opens a temporary file next to `path`.
    ///
    /// - Parameters:
    ///   - mode: The permission bits the file gets, whatever the umask (the temporary file is 0600 until then).
    ///     Without one the file is created like any new file: 0644 less the umask.
    ///   - owner: The owner the file gets when the process may give it (a replaced sheet keeps its owner); ignored
    ///     when not permitted.
    ///   - group: The group the file gets when the process may give it; ignored when not permitted.
    ///   - keepingCached: Whether the file's pages stay in the page cache after its flush. By default they are
    ///     dropped once the bytes are on disk: a night's outputs (gigabytes over a thousand accounts) are read again
    ///     only by the clerk, the next day, and would otherwise push the server's own working set out of memory.
    ///     Reused at once, the freed memory is also cheaper to hand out again than memory the system has not touched
    ///     for a while. A file the run reads back (a pulled sheet) keeps its pages.
    ///   - names: The source of temporary names; tests use one that collides on purpose.
    public init(
        path: String, mode: mode_t? = nil, owner: uid_t? = nil, group: gid_t? = nil, keepingCached: Bool = false,
        names: PartialFileName = PartialFileName()
    ) throws(StocktakeError) {
        self.path = path
        releasesCache = !keepingCached
        self.mode = mode
        self.owner = owner
        self.group = group
        let (folder, name) = AtomicFile.split(path)
        self.folder = folder.isEmpty ? "." : folder
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        var attempt = 0
        while true {
            let candidate = folder + names.make(for: name)
            let opened = open(candidate, flags, mode == nil ? 0o644 : 0o600)
            if opened >= 0 {
                temporaryPath = candidate
                descriptor = opened
                break
            }
            let code = errno
            if code == EINTR { continue }
            guard code == EEXIST else { throw AtomicFile.failure(path) }
            attempt += 1
            guard attempt < Self.attempts else {
                throw .cannotWrite(
                    path: path,
                    reason: "\(Self.attempts) random temporary names in a row were already taken in its folder, "
                        + "which only happens when someone plants files there (look for .\(name).stocktake-*.partial)"
                )
            }
        }
        buffer.reserveCapacity(bufferSize)
    }

    deinit {
        // A flush under way uses the descriptor: it ends before the descriptor is closed.
        flushing?.done.wait()
        if descriptor >= 0 {
            close(descriptor)
            if !isNamed { unlink(temporaryPath) }
        }
    }

    /// Appends bytes. Bytes of `directWriteSize` or more (a block of a table, a piece of a workbook) go to the file
    /// from their own array, after what is buffered, instead of being copied into the buffer first.
    public func write(_ bytes: [UInt8]) throws(StocktakeError) {
        try bytes.withUnsafeBytes { bytes in Result { () throws(StocktakeError) in try write(bytes) } }.get()
    }

    /// Appends bytes from wherever they are, as `write(_:)` appends an array's: a block of a table goes to the file
    /// from the `ByteBuffer` it was formatted in, never copied into an array first. The bytes are not kept after
    /// the call returns.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(StocktakeError) {
        guard bytes.count < Self.directWriteSize else {
            try flush()
            guard writeOut(bytes) else { throw abandon() }
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= bufferSize { try flush() }
    }

    /// The size from which `write(_:)` writes bytes out without buffering them.
    static let directWriteSize = 1 << 16

    /// Appends UTF-8 text.
    public func write(_ text: String) throws(StocktakeError) {
        try write(Array(text.utf8))
    }

    /// Flushes everything to disk, gives the file its owner and permissions, and puts it in place.
    ///
    /// The file's bytes are on disk before it takes its name, always. With `synchronizingFolder` false the folder's
    /// entries are not flushed: a run writing several files into one folder flushes it once, after the last of them
    /// and before the file that marks the run complete (see `ReconcileJob.writeReports`), instead of once per file.
    public func commit(synchronizingFolder: Bool = true) throws(StocktakeError) {
        precondition(!isNamed, "the file already has its name")
        if flushing != nil {
            try finishFlushing()
        } else if !isFlushed {
            try finishWriting()
            guard fsync(descriptor) == 0 else { throw abandon() }
            if releasesCache { _ = stocktake_release_cached(descriptor) }
        }
        try takeName()
        if synchronizingFolder { AtomicFile.synchronizeFolder(folder) }
    }

    /// Finishes the file and starts flushing it to disk on a thread of its own; `commit()` waits for the flush, then
    /// renames. Files written side by side wait for the disk at the same time instead of one after another (a flush
    /// costs about 3.5 ms on a cloud volume). Nothing may be written after this.
    public func startFlushing() throws(StocktakeError) {
        try startFlushing(synchronizing: Self.synchronize)
    }

    /// `startFlushing()` with the flush itself given: `synchronize` flushes a descriptor and returns 0, or the errno
    /// of its failure. Tests give one that fails, as a disk that fails a flush does.
    func startFlushing(synchronizing synchronize: @escaping @Sendable (Int32) -> Int32) throws(StocktakeError) {
        precondition(flushing == nil && !isFlushed, "the file is already flushed")
        try finishWriting()
        let flush = Flush(descriptor: descriptor)
        flushing = flush
        let releasesCache = releasesCache
        let work: @Sendable () -> Void = {
            flush.failure = synchronize(flush.descriptor)
            if flush.failure == 0 && releasesCache { _ = stocktake_release_cached(flush.descriptor) }
            flush.done.signal()
        }
        // Where no thread may be started (`Parallel.withoutThreads`), the flush is made here and now.
        Parallel.detach(work)
    }

    /// Puts the file in place now and flushes it, then its folder, on a thread of its own; `waitForFlush()` waits for
    /// both. Nothing may be written after this.
    ///
    /// Only for a file that is read back at once and needed on disk only at a later point the caller waits for: the
    /// pulled central sheet is read while it flushes, instead of the account waiting a flush (2–3 ms) with a core
    /// idle, and is on disk before any output is written or anything pushed. Until then a power cut may leave it
    /// incomplete under its name, in a run folder that has no `run.json` yet and that the next run removes.
    ///
    /// `synchronize` flushes a descriptor and returns 0, or the errno of its failure; tests give one that fails.
    public func takeNameFlushingLater(
        synchronizing synchronize: @escaping @Sendable (Int32) -> Int32 = AtomicFileWriter.synchronize
    ) throws(StocktakeError) {
        precondition(flushing == nil && !isFlushed, "the file is already flushed")
        try finishWriting()
        KillPoint.renaming(path)
        guard rename(temporaryPath, path) == 0 else { throw abandon() }
        isNamed = true
        let flush = Flush(descriptor: descriptor)
        flushing = flush
        let (folder, releasesCache) = (folder, releasesCache)
        let work: @Sendable () -> Void = {
            flush.failure = synchronize(flush.descriptor)
            if flush.failure == 0 {
                if releasesCache { _ = stocktake_release_cached(flush.descriptor) }
                AtomicFile.synchronizeFolder(folder)
            }
            flush.done.signal()
        }
        Parallel.detach(work)
    }

    /// Waits for the flush `takeNameFlushingLater()` began. When it failed, the file is removed (its bytes may never
    /// reach the disk) and the error thrown.
    public func waitForFlush() throws(StocktakeError) {
        guard isNamed, let flushing else { return }
        flushing.done.wait()
        self.flushing = nil
        isFlushed = true
        close(descriptor)
        descriptor = -1
        guard flushing.failure == 0 else {
            unlink(path)
            errno = flushing.failure
            throw AtomicFile.failure(path)
        }
    }

    /// Flushes `descriptor` to disk: 0, or the errno of the failure.
    @Sendable public static func synchronize(_ descriptor: Int32) -> Int32 {
        fsync(descriptor) == 0 ? 0 : errno
    }

    /// Waits for the flush `startFlushing()` began; when it failed, the file is abandoned and the error thrown.
    func finishFlushing() throws(StocktakeError) {
        guard let flushing else { return }
        flushing.done.wait()
        self.flushing = nil
        isFlushed = true
        if flushing.failure != 0 { throw abandon(failingWith: flushing.failure) }
    }

    /// A flush under way on another thread: the writer reads `failure` only after `done` is signalled.
    private final class Flush: @unchecked Sendable {
        let descriptor: Int32
        let done = DispatchSemaphore(value: 0)
        /// The errno of a failed flush, 0 when it succeeded.
        var failure: Int32 = 0

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }
    }

    /// Writes out what is buffered and gives the file its owner and permissions: everything of a commit but the
    /// flush to disk and the rename.
    func finishWriting() throws(StocktakeError) {
        try flush()
        if owner != nil || group != nil { giveOwnership() }
        if let mode, fchmod(descriptor, mode) != 0 { throw abandon() }
    }

    /// Closes the flushed file and renames it over `path`.
    func takeName() throws(StocktakeError) {
        let closed = close(descriptor)
        descriptor = -1
        KillPoint.renaming(path)
        guard closed == 0, rename(temporaryPath, path) == 0 else {
            let failed = AtomicFile.failure(path)
            unlink(temporaryPath)
            throw failed
        }
    }

    /// Gives the file the requested owner and group, or only the group when the owner cannot be given (a member of
    /// the group may give a file to it), or leaves them: keeping them is a courtesy, not a condition of the write.
    private func giveOwnership() {
        let unchanged = uid_t.max
        if fchown(descriptor, owner ?? unchanged, group ?? unchanged) == 0 { return }
        if errno == EPERM, owner != nil, let group { _ = fchown(descriptor, unchanged, group) }
    }

    private func flush() throws(StocktakeError) {
        guard buffer.withUnsafeBytes({ writeOut($0) }) else { throw abandon() }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes all of `bytes` to the file; false when the system refuses (`errno` says why).
    private func writeOut(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            let result = AtomicFile.systemWrite(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            done += result
        }
        written += bytes.count
        if written - writebackStart >= Self.writebackSize {
            startWriteback(descriptor, writebackStart, written - writebackStart)
            writebackStart = written
        }
        return true
    }

    /// Abandons the write as after the system refused it with `code` (`ENOSPC` for a full disk): the temporary file
    /// is removed, and the error returned is the one a real failure with that errno gives. `--simulate-failure
    /// disk-full` uses it, so a rehearsed full disk is classified exactly as a real one.
    public func abandon(simulating code: Int32) -> StocktakeError {
        abandon(failingWith: code)
    }

    /// Abandons the write after the system refused it with `code`: the temporary file is removed and the error
    /// returned names the failure.
    func abandon(failingWith code: Int32) -> StocktakeError {
        errno = code
        return abandon()
    }

    /// Removes the temporary file after a failure and returns the error to throw, keeping the failure's errno.
    private func abandon() -> StocktakeError {
        let error = errno
        close(descriptor)
        descriptor = -1
        unlink(temporaryPath)
        errno = error
        return AtomicFile.failure(path)
    }
}
