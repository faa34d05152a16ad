/// A 64-bit FNV-1a hash of a sheet's bytes: cheap to compute, stable across runs and versions, and written into
/// records that a later night reads (a push's intent) or compares within one night (a Google Sheets pull's version).
/// It tells one sheet's content from another's; it is no defence against anyone choosing bytes to collide.
enum ContentHash {
    /// The FNV-1a hash of `bytes`.
    static func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// `value` as 16 lower-case hex digits, leading zeros included.
    static func hex(_ value: UInt64) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
