/// Copies the few bytes of a cell, a separator or a piece of markup without calling `memcpy`.
///
/// The writers append a few bytes at a time, hundreds of thousands of times per table, and a call to `memcpy` (its
/// call, its dispatch on the size, its return) cost more than the copy. Up to 32 bytes are copied here as at most
/// four words that may overlap; more go to `memcpy`, which is faster for them.
enum ShortCopy {
    /// Copies `count` bytes from `source` to `target`; the two must not overlap.
    @inline(__always)
    static func copy(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int) {
        if count >= 8 {
            if count > 32 {
                target.copyMemory(from: source, byteCount: count)
                return
            }
            if count > 16 {
                copyWord(UInt64.self, from: source, to: target, at: 8)
                copyWord(UInt64.self, from: source, to: target, at: count &- 16)
            }
            copyWord(UInt64.self, from: source, to: target, at: 0)
            copyWord(UInt64.self, from: source, to: target, at: count &- 8)
        } else if count >= 4 {
            copyWord(UInt32.self, from: source, to: target, at: 0)
            copyWord(UInt32.self, from: source, to: target, at: count &- 4)
        } else if count > 0 {
            copyWord(UInt8.self, from: source, to: target, at: 0)
            if count > 1 { copyWord(UInt16.self, from: source, to: target, at: count &- 2) }
        }
    }

    @inline(__always)
    private static func copyWord<Word: FixedWidthInteger>(
        _: Word.Type, from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, at offset: Int
    ) {
        target.storeBytes(
            of: source.loadUnaligned(fromByteOffset: offset, as: Word.self), toByteOffset: offset, as: Word.self)
    }
}
