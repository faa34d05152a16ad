/// The last 1 to 7 bytes of a text as one word, for the hashes that take a text eight bytes at a time (`TextPool`,
/// `RowFingerprint`): read without a loop and never past the text.
enum WordTail {
    /// The bytes from `offset` to `count` (1 to 7 of them) of the text at `bytes`, packed little-endian into the low
    /// bytes of a word, the rest zero: the value a loop adding one byte at a time would give. A text of 8 bytes or
    /// more gives its last eight bytes shifted down; a shorter one two 4-byte loads that may overlap, or for 1 to 3
    /// bytes its first, middle and last byte.
    @inline(__always)
    static func littleEndian(_ bytes: UnsafeRawPointer, from offset: Int, count: Int) -> UInt64 {
        let remaining = count - offset
        if count >= 8 {
            return bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) &>> UInt64(64 - 8 * remaining)
        }
        if remaining >= 4 {
            let low = UInt64(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let high = UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            return low | (high &>> UInt64(64 - 8 * remaining)) &<< 32
        }
        let first = UInt64(bytes.load(fromByteOffset: offset, as: UInt8.self))
        let middle = UInt64(bytes.load(fromByteOffset: offset + remaining / 2, as: UInt8.self))
        let last = UInt64(bytes.load(fromByteOffset: count - 1, as: UInt8.self))
        switch remaining {
        case 1: return first
        case 2: return first | last &<< 8
        default: return first | middle &<< 8 | last &<< 16
        }
    }
}
