/// A 128-bit fingerprint of a row's raw cells, used to find rows repeated in one file without keeping their text.
///
/// Cells are absorbed eight bytes at a time into two independent lanes, each a full-width multiply folded to 64
/// bits. A cell's last bytes are read as one word (`WordTail`), not a byte at a time: most cells are shorter than
/// eight bytes.
///
/// Each cell ends with a word no eight bytes of text can be (text holds no NUL byte), so `a,bc` and `ab,c` differ:
/// its last 1 to 6 bytes with a zero byte above them and their number in the top byte (one word for most cells), or
/// else its length under a top byte of 0xFF after any last 7 bytes.
struct RowFingerprint: Hashable {
    private(set) var first: UInt64 = 0x243f_6a88_85a3_08d3
    private(set) var second: UInt64 = 0x1319_8a2e_0370_7344

    /// Adds one cell.
    mutating func add(_ cell: UnsafeBufferPointer<UInt8>) {
        let count = cell.count
        if let base = cell.baseAddress, count > 0 {
            let bytes = UnsafeRawPointer(base)
            var offset = 0
            while offset + 8 <= count {
                absorb(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            let remaining = count - offset
            if remaining > 0 {
                let tail = WordTail.littleEndian(bytes, from: offset, count: count)
                if remaining <= 6 {
                    absorb(tail | UInt64(0x80 | remaining) << 56)
                    return
                }
                absorb(tail)
            }
        }
        absorb(UInt64(count) | 0xff00_0000_0000_0000)
    }

    @inline(__always)
    private mutating func absorb(_ word: UInt64) {
        let one = (first ^ word).multipliedFullWidth(by: 0xa076_1d64_78bd_642f)
        first = one.high ^ one.low
        let two = ((second &+ word) ^ 0xe703_7ed1_a0b4_28db).multipliedFullWidth(by: 0x8ebc_6af0_9c88_c6e3)
        second = two.high ^ two.low
    }
}
