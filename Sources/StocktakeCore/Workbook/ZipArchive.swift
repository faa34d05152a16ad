#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ZIP file held in memory: an .xlsx workbook read from disk, or a pulled sheet that is bytes already.
///
/// Opening reads the end record and the central directory and checks every entry's local header, so that every
/// size and offset is known to lie inside the file before any entry is read; a damaged, truncated or non-ZIP file
/// gives a `ZipError`, never an out-of-bounds read. Entries are inflated on demand by `contents(of:limits:)`.
public struct ZipArchive: Sendable {
    /// The file's name for messages, e.g. "assets.xlsx".
    public let name: String
    /// The whole file.
    public let bytes: [UInt8]
    /// The entries in central-directory order.
    public let entries: [ZipEntry]

    /// The largest file `init(path:name:)` reads into memory; a workbook is a few megabytes compressed.
    public static let maximumFileSize = 1 << 30

    /// Reads the ZIP structure of `bytes`; `name` names the file in errors.
    public init(bytes: [UInt8], name: String) throws(ZipError) {
        self.name = name
        self.bytes = bytes
        self.entries = try ZipDirectoryParser(bytes: bytes, name: name).entries()
    }

    /// Reads the file at `path` (named `name` in errors, by default its last path component) and its ZIP
    /// structure. A missing file, a folder, a permission problem or a file over `maximumFileSize` throws
    /// `.unreadable` with the system's error code.
    public init(path: String, name: String? = nil) throws(ZipError) {
        let fileName = name ?? String(path.split(separator: "/").last ?? Substring(path))
        let bytes = try ZipArchive.readFile(path: path, name: fileName)
        try self.init(bytes: bytes, name: fileName)
    }

    /// The entry called `name`: the exact name first, then ASCII-case-insensitively (with "\" taken as "/"); a
    /// leading "/" is ignored, so "/xl/workbook.xml" finds "xl/workbook.xml". The first of duplicates wins.
    public func entry(named name: String) -> ZipEntry? {
        let wanted = ZipArchive.withoutLeadingSlash(Array(name.utf8))
        if let exact = entries.first(where: { ZipArchive.withoutLeadingSlash(Array($0.name.utf8)) == wanted }) {
            return exact
        }
        let folded = ZipArchive.folded(wanted)
        return entries.first { ZipArchive.folded(ZipArchive.withoutLeadingSlash(Array($0.name.utf8))) == folded }
    }

    /// The entry's contents: stored bytes, or deflated data inflated, and CRC-32-checked. Refuses an encrypted
    /// entry, a method other than stored or deflated, and an entry whose declared or actual size passes `limits`
    /// (inflating stops as soon as it does).
    public func contents(of entry: ZipEntry, limits: ZipLimits = .standard) throws(ZipError) -> [UInt8] {
        if entry.isEncrypted { throw .encryptedEntry(file: name, entry: entry.name) }
        guard entry.method == 0 || entry.method == 8 else {
            throw .unsupportedMethod(file: name, entry: entry.name, method: entry.method)
        }
        if entry.uncompressedSize > limits.maximumEntrySize {
            throw .entryTooLarge(file: name, entry: entry.name, limit: limits.maximumEntrySize)
        }
        if limits.exceedsRatio(size: entry.uncompressedSize, compressed: entry.compressedSize) {
            throw .ratioTooHigh(file: name, entry: entry.name, limit: limits.maximumRatio)
        }
        let start = entry.dataOffset
        guard start >= 0, entry.compressedSize >= 0, start <= bytes.count, entry.compressedSize <= bytes.count - start
        else { throw .truncated(file: name) }
        let data = bytes[start..<(start + entry.compressedSize)]
        let contents: [UInt8]
        if entry.method == 0 {
            guard entry.compressedSize == entry.uncompressedSize else {
                throw .sizeMismatch(file: name, entry: entry.name, declared: entry.uncompressedSize)
            }
            contents = Array(data)
        } else {
            do {
                contents = try ZipInflater.inflate(data, expectedSize: entry.uncompressedSize, limits: limits)
            } catch {
                switch error {
                case .corrupt:
                    throw .corruptData(file: name, entry: entry.name)
                case .tooLarge:
                    throw .entryTooLarge(file: name, entry: entry.name, limit: limits.maximumEntrySize)
                case .ratioTooHigh:
                    throw .ratioTooHigh(file: name, entry: entry.name, limit: limits.maximumRatio)
                case .longerThanExpected:
                    throw .sizeMismatch(file: name, entry: entry.name, declared: entry.uncompressedSize)
                }
            }
            guard contents.count == entry.uncompressedSize else {
                throw .sizeMismatch(file: name, entry: entry.name, declared: entry.uncompressedSize)
            }
        }
        guard ZipInflater.checksum(contents) == entry.crc32 else {
            throw .checksumMismatch(file: name, entry: entry.name)
        }
        return contents
    }

    /// The entry's bytes exactly as stored (local header, compressed data, data descriptor), for byte-for-byte
    /// copies into another ZIP file.
    public func storedRecord(of entry: ZipEntry) -> ArraySlice<UInt8> {
        let start = min(max(entry.localHeaderOffset, 0), bytes.count)
        let end = min(max(entry.recordEnd, start), bytes.count)
        return bytes[start..<end]
    }

    /// `name` without one leading "/".
    private static func withoutLeadingSlash(_ name: [UInt8]) -> ArraySlice<UInt8> {
        name.first == UInt8(ascii: "/") ? name.dropFirst() : name[...]
    }

    /// `name` with ASCII letters in lower case and "\" as "/".
    private static func folded(_ name: ArraySlice<UInt8>) -> [UInt8] {
        name.map { byte in
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { return byte + 32 }
            return byte == UInt8(ascii: "\\") ? UInt8(ascii: "/") : byte
        }
    }

    /// The bytes of the regular file at `path`, at most `maximumFileSize` of them.
    private static func readFile(path: String, name: String) throws(ZipError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(file: name, errno: errno) }
        defer { _ = close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(file: name, errno: errno) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw .unreadable(file: name, errno: EISDIR) }
        if Int(status.st_size) > maximumFileSize { throw .unreadable(file: name, errno: EFBIG) }
        var result: [UInt8] = []
        result.reserveCapacity(max(0, Int(status.st_size)))
        let chunkSize = 1 << 20
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }
        while true {
            let count = read(descriptor, chunk, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(file: name, errno: errno)
            }
            if count == 0 { return result }
            if result.count + count > maximumFileSize { throw .unreadable(file: name, errno: EFBIG) }
            result.append(contentsOf: UnsafeBufferPointer(start: chunk, count: count))
        }
    }
}
