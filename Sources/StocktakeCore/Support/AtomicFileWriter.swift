#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written piece by piece that appears at its path only when complete (see `AtomicFile`).
///
/// Large outputs stream through it, so writing a million-row table never holds the whole file in memory. If the
/// writer is dropped before `commit()`, the temporary file is removed and the old file stays as it was.
public final class AtomicFileWriter {
    public let path: String
    private let temporary: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private let bufferSize = 1 << 20

    /// Opens a temporary file next to `path`.
    public init(path: String) throws(StocktakeError) {
        self.path = path
        temporary = path + ".partial-\(getpid())"
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw AtomicFile.failure(path) }
        buffer.reserveCapacity(bufferSize)
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            unlink(temporary)
        }
    }

    /// Appends bytes.
    public func write(_ bytes: [UInt8]) throws(StocktakeError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= bufferSize { try flush() }
    }

    /// Appends UTF-8 text.
    public func write(_ text: String) throws(StocktakeError) {
        try write(Array(text.utf8))
    }

    /// Flushes everything to disk and puts the file in place.
    public func commit() throws(StocktakeError) {
        try flush()
        guard fsync(descriptor) == 0 else { throw abandon() }
        let closed = close(descriptor)
        descriptor = -1
        guard closed == 0, rename(temporary, path) == 0 else {
            let failed = AtomicFile.failure(path)
            unlink(temporary)
            throw failed
        }
    }

    private func flush() throws(StocktakeError) {
        var written = 0
        let ok = buffer.withUnsafeBytes { bytes -> Bool in
            while written < bytes.count {
                let result = AtomicFile.systemWrite(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += result
            }
            return true
        }
        guard ok else { throw abandon() }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Removes the temporary file after a failure and returns the error to throw, keeping the failure's errno.
    private func abandon() -> StocktakeError {
        let error = errno
        close(descriptor)
        descriptor = -1
        unlink(temporary)
        errno = error
        return AtomicFile.failure(path)
    }
}
