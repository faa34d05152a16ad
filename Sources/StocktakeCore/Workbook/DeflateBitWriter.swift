/// Writes deflate's bit stream (least significant bit first) into memory the caller sized, whole bytes at a time.
///
/// The caller guarantees room: `DeflateEncoder` reserves, before each block, at least as many bytes as the block
/// can take, plus 8 bytes past them, so no write checks for space. Each write stores eight bytes at once and moves
/// on by the whole bytes it completed, without a branch on how many bits are pending: which way such a branch goes
/// changes from one symbol to the next. (Writing 32 bits at a time behind such a branch, deflate took 9.8 % of a
/// 100,000-asset run's samples; this way 8.4 %, for 0.4 % fewer instructions.)
struct DeflateBitWriter {
    /// Where the next whole byte goes.
    private(set) var output: UnsafeMutablePointer<UInt8>
    /// Bits not yet in a whole byte, in the low `pending` bits (0 to 7 between writes).
    private var bits: UInt64 = 0
    private var pending = 0

    /// The most bits one write adds: with up to 7 pending, they fill at most 63 bits of the word.
    static let widestWrite = 56

    init(output: UnsafeMutablePointer<UInt8>) {
        self.output = output
    }

    /// Adds the low `count` bits of `value` (at most `widestWrite`, and nothing above them set). The eight bytes from
    /// `output` are overwritten, so the caller's memory must have room for them.
    @inline(__always)
    mutating func write(_ value: UInt64, count: Int) {
        // `pending` is at most 7 here and `count` at most 56: the shifts and the sum need no checks.
        bits |= value &<< UInt64(truncatingIfNeeded: pending)
        pending &+= count
        UnsafeMutableRawPointer(output).storeBytes(of: bits.littleEndian, as: UInt64.self)
        let whole = pending &>> 3
        output += whole
        // `whole * 8` is at most 56 (a shift of 64 would keep every bit).
        bits = bits &>> UInt64(truncatingIfNeeded: whole &<< 3)
        pending &= 7
    }

    /// Pads the stream with zero bits to a byte boundary and stores every whole byte, so that bytes can follow.
    mutating func alignToByte() {
        if pending > 0 {
            output.pointee = UInt8(truncatingIfNeeded: bits)
            output += 1
        }
        bits = 0
        pending = 0
    }

    /// Adds `bytes` as they are; the stream must be at a byte boundary (`alignToByte()`).
    mutating func copy(_ bytes: UnsafeRawBufferPointer) {
        precondition(pending == 0, "bytes are copied only at a byte boundary")
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        UnsafeMutableRawPointer(output).copyMemory(from: base, byteCount: bytes.count)
        output += bytes.count
    }
}
