#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `cat` floor: how long merely reading the input files takes once they are in the page cache. No
/// reconciliation can read its inputs faster, so wall time over this floor says how far a run is from the disk's
/// (here: memory's) limit.
struct PageCacheFloor: Sendable {
    /// Seconds to read every file once, after a first read put them in the page cache.
    var seconds: Double
    /// The bytes read.
    var bytes: Int

    /// Reads `files` once to warm the page cache, then times reading them all again with read(2), the way
    /// `cat FILES > /dev/null` would.
    static func measure(_ files: [String]) throws(BenchError) -> PageCacheFloor {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 4096)
        defer { buffer.deallocate() }
        _ = try readAll(files, into: buffer)
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        let bytes = try readAll(files, into: buffer)
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        return PageCacheFloor(seconds: seconds, bytes: bytes)
    }

    private static func readAll(_ files: [String], into buffer: UnsafeMutableRawPointer) throws(BenchError) -> Int {
        var total = 0
        for file in files {
            let descriptor = open(file, O_RDONLY)
            guard descriptor >= 0 else {
                throw .cannotRead(path: file, reason: String(cString: strerror(errno)).lowercased())
            }
            defer { close(descriptor) }
            while true {
                let count = read(descriptor, buffer, 1 << 20)
                if count > 0 {
                    total += count
                } else if count == 0 || errno != EINTR {
                    guard count == 0 else {
                        throw .cannotRead(path: file, reason: String(cString: strerror(errno)).lowercased())
                    }
                    break
                }
            }
        }
        return total
    }
}
