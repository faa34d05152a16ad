#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What kind of file a source is, told from its first bytes rather than its name: a clerk's `.csv` may really be a
/// workbook Excel saved under the old name, and a workbook may come from a server without a name at all.
public enum SourceFormat: Sendable, Equatable {
    /// Delimited text: CSV, TSV, Excel's "Unicode Text".
    case text
    /// An Office Open XML workbook (`.xlsx`, `.xlsm`): a ZIP package.
    case workbook
    /// An OLE2 compound document: an old binary `.xls` workbook, or an `.xlsx` encrypted with a password.
    case compoundDocument

    /// A ZIP file starts with a local file header, `PK` 3 4 (or, when empty, the end record `PK` 5 6).
    private static let zipSignatures: [[UInt8]] = [[0x50, 0x4B, 0x03, 0x04], [0x50, 0x4B, 0x05, 0x06]]
    /// The signature of every OLE2 compound document.
    private static let compoundSignature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    /// The format of bytes that start with `prefix` (at least the first 8 bytes, when the file has them).
    public static func of<Bytes: Collection<UInt8>>(prefix: Bytes) -> SourceFormat {
        if zipSignatures.contains(where: { prefix.starts(with: $0) }) { return .workbook }
        if prefix.starts(with: compoundSignature) { return .compoundDocument }
        return .text
    }

    /// The format of the file at `path`; `.text` when it cannot be read (reading it as text then says why).
    public static func of(path: String) -> SourceFormat {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .text }
        defer { _ = close(descriptor) }
        var prefix = [UInt8](repeating: 0, count: 8)
        let count = prefix.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 8) }
        return of(prefix: prefix.prefix(max(0, count)))
    }
}
