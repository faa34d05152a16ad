/// A 128-bit fingerprint of a row's raw cells, used to find rows repeated in one file without keeping their text.
struct RowFingerprint: Hashable {
    private var first: UInt64 = 0xcbf2_9ce4_8422_2325
    private var second: UInt64 = 0x9e37_79b9_7f4a_7c15

    /// Adds one cell; cells are separated so `a,bc` and `ab,c` differ.
    mutating func add(_ cell: UnsafeBufferPointer<UInt8>) {
        for byte in cell { mix(byte) }
        mix(0xff)
        first = (first ^ 0x1f) &* 0x0000_0100_0000_01b3
    }

    private mutating func mix(_ byte: UInt8) {
        first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        second = (second &+ UInt64(byte) &+ 1) &* 0xff51_afd7_ed55_8ccd
        second ^= second >> 29
    }
}
