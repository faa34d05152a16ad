#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes files so that readers only ever see the old file or the complete new one, never half of it.
///
/// The bytes go to a temporary file in the same folder, are flushed to disk with `fsync`, and the temporary file
/// is then renamed over the target. A full disk or a read-only folder leaves the old file untouched.
public enum AtomicFile {
    /// Replaces the file at `path` with `bytes`.
    public static func write(_ bytes: [UInt8], to path: String) throws(StocktakeError) {
        let file = try AtomicFileWriter(path: path)
        try file.write(bytes)
        try file.commit()
    }

    /// Replaces the file at `path` with the UTF-8 text.
    public static func write(_ text: String, to path: String) throws(StocktakeError) {
        try write(Array(text.utf8), to: path)
    }

    /// Creates `path` and its missing parents.
    public static func makeDirectory(_ path: String) throws(StocktakeError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw failure(path) }
        }
    }

    static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(descriptor, bytes, count)
        #else
            Darwin.write(descriptor, bytes, count)
        #endif
    }

    static func failure(_ path: String) -> StocktakeError {
        let code = errno
        let reason: String
        switch code {
        case ENOSPC, EDQUOT: reason = "the disk is full"
        case EROFS: reason = "the file system is read-only"
        case EACCES, EPERM: reason = "permission denied"
        case ENOENT: reason = "the folder does not exist"
        default: reason = String(cString: strerror(code)).lowercased()
        }
        return .cannotWrite(path: path, reason: reason)
    }
}
