/// Writes deflate's bit stream (least significant bit first) into memory the caller sized, 32 bits at a time.
///
/// The caller guarantees room: `DeflateEncoder` reserves, before each block, at least as many bytes as the block
/// can take, so no write checks for space.
struct DeflateBitWriter {
    /// Where the next whole byte goes.
    private(set) var output: UnsafeMutablePointer<UInt8>
    /// Bits not yet stored, in the low `pending` bits.
    private var bits: UInt64 = 0
    private var pending = 0

    init(output: UnsafeMutablePointer<UInt8>) {
        self.output = output
    }

    /// Adds the low `count` bits of `value` (at most 32, and nothing above them set).
    @inline(__always)
    mutating func write(_ value: UInt64, count: Int) {
        // `pending` is below 32 here and `count` at most 32: the shift and the sum need no checks.
        bits |= value &<< UInt64(truncatingIfNeeded: pending)
        pending &+= count
        if pending >= 32 {
            UnsafeMutableRawPointer(output).storeBytes(
                of: UInt32(truncatingIfNeeded: bits).littleEndian, as: UInt32.self)
            output += 4
            bits >>= 32
            pending -= 32
        }
    }

    /// Pads the stream with zero bits to a byte boundary and stores every whole byte, so that bytes can follow.
    mutating func alignToByte() {
        while pending > 0 {
            output.pointee = UInt8(truncatingIfNeeded: bits)
            output += 1
            bits >>= 8
            pending = max(0, pending - 8)
        }
        bits = 0
    }

    /// Adds `bytes` as they are; the stream must be at a byte boundary (`alignToByte()`).
    mutating func copy(_ bytes: UnsafeRawBufferPointer) {
        precondition(pending == 0, "bytes are copied only at a byte boundary")
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        UnsafeMutableRawPointer(output).copyMemory(from: base, byteCount: bytes.count)
        output += bytes.count
    }
}
