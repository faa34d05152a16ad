import CZlib

/// CRC-32 of ZIP entries, through zlib.
enum ZipChecksum {
    /// The CRC-32 of `bytes` continued from `crc` (0 to start).
    static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var value = uLong(crc)
        var offset = 0
        while offset < bytes.count {
            let count = min(bytes.count - offset, 1 << 30)
            value = CZlib.crc32(value, bytes.baseAddress!.assumingMemoryBound(to: Bytef.self) + offset, uInt(count))
            offset += count
        }
        return UInt32(truncatingIfNeeded: value)
    }

    /// The CRC-32 of `bytes` continued from `crc` (0 to start).
    static func crc32(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { crc32($0, continuing: crc) }
    }

    /// The CRC-32 of two pieces laid end to end, from the CRC-32 of each and the length of the second.
    static func combine(_ first: UInt32, _ second: UInt32, secondCount: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: crc32_combine(uLong(first), uLong(second), off_t(secondCount)))
    }
}
