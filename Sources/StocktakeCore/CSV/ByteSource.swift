#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the reader's bytes come from: a file read with `read(2)` chunk by chunk, or bytes already in memory.
///
/// A source owns an open file descriptor while reading; `finish()` must be called when done.
struct ByteSource {
    private enum Storage {
        case file(descriptor: Int32)
        case memory([UInt8], position: Int)
    }

    private var storage: Storage
    /// The bytes a regular file held after the starting offset when it was opened, to size a first read.
    private var sizeAtOpen: Int?
    /// The name used in error messages.
    private let name: String

    /// Opens `path` for reading from byte `offset` on; a missing file, a directory or a permission problem throws
    /// `.unreadable`.
    init(path: String, name: String, offset: Int = 0) throws(CSVError) {
        self.name = name
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw .unreadable(file: name, reason: ByteSource.systemReason(code), errno: code)
        }
        var status = stat()
        if fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
            _ = close(descriptor)
            throw .unreadable(file: name, reason: ByteSource.systemReason(EISDIR), errno: EISDIR)
        }
        if (status.st_mode & S_IFMT) == S_IFREG { sizeAtOpen = max(0, Int(status.st_size) - offset) }
        if offset > 0 && lseek(descriptor, off_t(offset), SEEK_SET) < 0 {
            let code = errno
            _ = close(descriptor)
            throw .unreadable(file: name, reason: ByteSource.systemReason(code), errno: code)
        }
        storage = .file(descriptor: descriptor)
    }

    /// Serves `bytes` from `offset` on as if they were a file's content.
    init(bytes: [UInt8], name: String, offset: Int = 0) {
        self.name = name
        storage = .memory(bytes, position: min(offset, bytes.count))
    }

    /// The size in bytes of the file at `path`, or `nil` when it cannot be found out.
    static func size(of path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Fills the start of `buffer` with the next bytes; returns how many, 0 at end of file.
    mutating func nextChunk(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(CSVError) -> Int {
        switch storage {
        case .file(let descriptor):
            while true {
                let count = read(descriptor, buffer.baseAddress, buffer.count)
                if count >= 0 { return count }
                let code = errno
                if code != EINTR { throw .unreadable(file: name, reason: ByteSource.systemReason(code), errno: code) }
            }
        case .memory(let bytes, let position):
            let count = min(buffer.count, bytes.count - position)
            guard count > 0 else { return 0 }
            _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<count]).initialize(
                from: bytes[position..<(position + count)])
            storage = .memory(bytes, position: position + count)
            return count
        }
    }

    /// Reads the next bytes, as `nextChunk(into:)` does with a buffer of `capacity` bytes, into a new array sized
    /// for them (a file smaller than `capacity` takes no more memory than its size). Text in memory is handed over
    /// whole, without a copy when none of it was read yet.
    mutating func nextChunk(capacity: Int) throws(CSVError) -> [UInt8] {
        if case .memory(let bytes, let position) = storage {
            storage = .memory([], position: 0)
            return position == 0 ? bytes : Array(bytes[min(position, bytes.count)...])
        }
        // A file that has grown since it was opened is read on by the next calls.
        let size = max(1, min(capacity, sizeAtOpen ?? capacity))
        sizeAtOpen = nil
        var failure: CSVError?
        let chunk = [UInt8](unsafeUninitializedCapacity: size) { storage, initialized in
            do throws(CSVError) {
                initialized = try nextChunk(into: UnsafeMutableBufferPointer(rebasing: storage[0..<size]))
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return chunk
    }

    /// Everything left to read, in one array (`FileContents.read`): a regular file in one read of the size it had
    /// when opened, then whatever it grew by meanwhile; anything else chunk by chunk. The central sheet is planned
    /// from these bytes; reading it through Foundation copied all of it once more.
    mutating func remainingBytes() throws(CSVError) -> [UInt8] {
        switch storage {
        case .memory:
            return try nextChunk(capacity: 0)
        case .file(let descriptor):
            let expected = sizeAtOpen ?? 0
            sizeAtOpen = nil
            switch FileContents.read(descriptor, expectedSize: expected) {
            case .success(let bytes): return bytes
            case .failure(let failure):
                throw .unreadable(file: name, reason: ByteSource.systemReason(failure.code), errno: failure.code)
            }
        }
    }

    /// Closes the file descriptor, if any.
    mutating func finish() {
        if case .file(let descriptor) = storage {
            _ = close(descriptor)
            storage = .memory([], position: 0)
        }
    }

    /// The system's text for an `errno` value, such as "No such file or directory".
    static func systemReason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
