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
    public static func read(_ descriptor: Int32, expectedSize: Int) -> Result<[UInt8], Failure> {
        var failure: Int32?
        var atEnd = false
        var bytes = [UInt8](unsafeUninitializedCapacity: max(0, expectedSize) + 1) { storage, initialized in
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
