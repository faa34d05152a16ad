import CZlib

/// CRC-32 of ZIP entries: zlib's, folded with carry-less multiplication where the processor has it (see
/// `stocktake_crc32` in `CZlib`'s header).
enum ZipChecksum {
    /// The CRC-32 of `bytes` continued from `crc` (0 to start).
    static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return stocktake_crc32(crc, base.assumingMemoryBound(to: UInt8.self), UInt(bytes.count))
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
