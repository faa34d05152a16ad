#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading the rest of an open file into one array: the central sheet a plan addresses, and a sheet a local provider
/// pulls.
public enum FileContents {
    /// A read the system refused, by its `errno`.
    public struct Failure: Error, Equatable {
        public let code: Int32
    }

    /// The bytes left in `descriptor`, read into an array of `expectedSize` (the file's size when opened) and one
    /// byte more, to see the end in the same read: a sheet of 100 MB is not copied into ever larger arrays. Whatever
    /// the file grew by since is appended a chunk at a time, and a file whose size is not known (0) is read that way
    /// from the start.
    ///
    /// A large regular file (the central sheet of a million assets: 124 MB) is read in parts at once, one per thread
    /// (`Parallel.threads`): most of such a read is the system giving the array its pages, which one core did alone
    /// while the other waited.
    public static func read(_ descriptor: Int32, expectedSize: Int) -> Result<[UInt8], Failure> {
        read(descriptor, expectedSize: expectedSize, inPartsFrom: partsFrom)
    }

    /// The fewest bytes read in parts: below it one read costs less than starting a thread.
    static let partsFrom = 16 << 20

    /// Reads up to a count of bytes at an offset of a descriptor into memory, as `pread` does (which it is, but in
    /// tests that make a part fail).
    typealias PositionalRead = @Sendable (Int32, UnsafeMutableRawPointer, Int, off_t) -> Int

    /// `read(_:expectedSize:)`, reading in parts when `expectedSize` is at least `threshold` (tests lower it), each
    /// part with `positionalRead`.
    static func read(
        _ descriptor: Int32, expectedSize: Int, inPartsFrom threshold: Int,
        positionalRead: PositionalRead = { pread($0, $1, $2, $3) }
    ) -> Result<[UInt8], Failure> {
        var failure: Int32?
        var atEnd = false
        var bytes = [UInt8](unsafeUninitializedCapacity: max(0, expectedSize) + 1) { storage, initialized in
            if expectedSize >= threshold, expectedSize > 0, Parallel.threads > 1,
                readParts(descriptor, into: storage, count: expectedSize, with: positionalRead)
            {
                initialized = expectedSize
            }
            while initialized < storage.count {
                let count = systemRead(descriptor, storage.baseAddress! + initialized, storage.count - initialized)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if count == 0 {
                    atEnd = true
                    return
                }
                initialized += count
            }
        }
        if let failure { return .failure(Failure(code: failure)) }
        if atEnd { return .success(bytes) }
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(code: errno))
            }
            if count == 0 { return .success(bytes) }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Reads the `count` bytes that follow the offset of `descriptor` into the start of `storage`, in one part per
    /// thread (`pread`, which leaves the offset alone), then moves the offset past them. `false` when the descriptor
    /// is not a regular file, or a part comes up short (the file shrank) or fails: the offset is where it was, nothing
    /// read counts, and the file is read in order instead, which ends where the file ends or reports the error.
    private static func readParts(
        _ descriptor: Int32, into storage: UnsafeMutableBufferPointer<UInt8>, count: Int,
        with positionalRead: PositionalRead
    ) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        let start = lseek(descriptor, 0, SEEK_CUR)
        guard start >= 0, let base = storage.baseAddress else { return false }
        let parts = Parallel.threads
        let complete = ResultSlots<Bool>(count: parts)
        Parallel.perform(parts) { part in
            let end = count * (part + 1) / parts
            var done = count * part / parts
            while done < end {
                let read = positionalRead(descriptor, base + done, end - done, start + off_t(done))
                if read < 0 && errno == EINTR { continue }
                if read <= 0 { break }
                done += read
            }
            complete[part] = done == end
        }
        guard (0..<parts).allSatisfy({ complete[$0] == true }) else { return false }
        return lseek(descriptor, start + off_t(count), SEEK_SET) == start + off_t(count)
    }

    /// The bytes read at a time once the expected size is read and the file goes on.
    static let chunkSize = 1 << 16

    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(descriptor, buffer, count)
        #elseif canImport(Musl)
            Musl.read(descriptor, buffer, count)
        #else
            Darwin.read(descriptor, buffer, count)
        #endif
    }
}
