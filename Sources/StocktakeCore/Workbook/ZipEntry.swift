/// One file inside a ZIP file, as its central directory describes it (ZIP64 sizes and offsets already applied).
///
/// An entry is only a description: `ZipArchive.contents(of:)` inflates its data, checked against these values.
public struct ZipEntry: Sendable, Hashable {
    /// The entry's path inside the archive, e.g. "xl/worksheets/sheet1.xml": UTF-8 when flag bit 11 is set,
    /// otherwise code page 437 (the same as ASCII for every name an .xlsx uses).
    public let name: String
    /// The name's bytes exactly as stored in the central directory.
    public let nameBytes: [UInt8]
    /// The compression method: 0 stored, 8 deflated; others are refused when read.
    public let method: UInt16
    /// The general-purpose flags: bit 0 encrypted, bit 3 data descriptor, bit 6 strong encryption, bit 11 UTF-8.
    public let flags: UInt16
    /// The CRC-32 of the inflated contents.
    public let crc32: UInt32
    /// The size of the stored (compressed) data in bytes.
    public let compressedSize: Int
    /// The size of the inflated contents in bytes, as declared (checked when the entry is read).
    public let uncompressedSize: Int
    /// Where the entry's local header starts in the file.
    public let localHeaderOffset: Int
    /// Where the entry's compressed data starts in the file (after the local header's own name and extra field).
    public let dataOffset: Int
    /// Where the entry's stored record (local header, data, data descriptor) ends in the file.
    public let recordEnd: Int
    /// The MS-DOS modification time as stored (2-second units, minutes << 5, hours << 11).
    public let modificationTime: UInt16
    /// The MS-DOS modification date as stored (day, month << 5, years since 1980 << 9).
    public let modificationDate: UInt16
    /// The external file attributes as stored (Unix mode in the upper 16 bits when made on Unix).
    public let externalAttributes: UInt32

    /// Whether the entry is encrypted (traditional PKWARE encryption, or strong encryption); such entries are
    /// refused when read.
    public var isEncrypted: Bool { flags & 0x0001 != 0 || flags & 0x0040 != 0 }

    /// Whether a data descriptor (CRC and sizes) follows the entry's data (flag bit 3).
    public var hasDataDescriptor: Bool { flags & 0x0008 != 0 }

    /// Whether the entry is a folder rather than a file (its name ends with "/").
    public var isDirectory: Bool { nameBytes.last == UInt8(ascii: "/") }
}
