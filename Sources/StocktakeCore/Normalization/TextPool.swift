#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Interns texts by their bytes: each distinct byte string gets an id, its index in the order first seen.
///
/// Free text repeats (every access point of a model has the same description, a custodian has many devices), so a
/// file's rows hold few distinct texts. Looking the bytes up before any `String` exists means a repeated text costs
/// a hash of its bytes and one comparison, with no allocation and no UTF-8 validation.
struct TextPool: Sendable {
    /// Where each text's bytes start in `bytes` (and, one further, where they end), and its hash.
    private var starts: [Int] = [0]
    private var hashes: [UInt64] = []
    /// The bytes of all texts, one after the other.
    private var bytes: [UInt8] = []
    /// Open-addressing slots holding an id plus 1; 0 marks an empty slot.
    private var slots: [Int32] = Array(repeating: 0, count: 64)

    /// How many distinct texts the pool holds.
    var count: Int { hashes.count }

    /// The bytes of the text with id `id`.
    subscript(id: Int32) -> ArraySlice<UInt8> { bytes[starts[Int(id)]..<starts[Int(id) + 1]] }

    /// The id of `text`'s bytes, adding them when they are new (`isNew` then tells so).
    mutating func intern(_ text: UnsafeBufferPointer<UInt8>) -> (id: Int32, isNew: Bool) {
        intern(text, hash: Self.hash(text))
    }

    /// As `intern(_:)`, with the text's `hash(_:)` already known.
    mutating func intern(_ text: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (id: Int32, isNew: Bool) {
        let slot = self.slot(of: text, hash: hash)
        let found = slots[slot]
        if found != 0 { return (found - 1, false) }
        let id = Int32(hashes.count)
        slots[slot] = id + 1
        hashes.append(hash)
        bytes.append(contentsOf: text)
        starts.append(bytes.count)
        if hashes.count * 2 > slots.count { grow() }
        return (id, true)
    }

    /// The id of `text`'s bytes, or `nil` when the pool does not hold them.
    func id(of text: UnsafeBufferPointer<UInt8>) -> Int32? {
        let found = slots[slot(of: text, hash: Self.hash(text))]
        return found == 0 ? nil : found - 1
    }

    /// The slot holding `text`, or the empty slot where it would go.
    private func slot(of text: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        return slots.withUnsafeBufferPointer { slots in
            bytes.withUnsafeBufferPointer { stored in
                while true {
                    let found = Int(slots[index])
                    if found == 0 { return index }
                    let id = found - 1
                    if hashes[id] == hash && starts[id + 1] - starts[id] == text.count
                        && (text.isEmpty
                            || memcmp(stored.baseAddress! + starts[id], text.baseAddress!, text.count) == 0)
                    {
                        return index
                    }
                    index = (index + 1) & mask
                }
            }
        }
    }

    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for id in hashes.indices {
            var index = Int(truncatingIfNeeded: hashes[id]) & mask
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = Int32(id + 1)
        }
    }

    /// A 64-bit hash of `text`, eight bytes at a time.
    static func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9e37_79b9_7f4a_7c15 ^ UInt64(text.count)
        guard let base = text.baseAddress else { return hash }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        let count = text.count
        while offset + 8 <= count {
            hash = mix(hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < count {
            var word: UInt64 = 0
            var shift: UInt64 = 0
            while offset < count {
                word |= UInt64(raw.load(fromByteOffset: offset, as: UInt8.self)) &<< shift
                shift += 8
                offset += 1
            }
            hash = mix(hash ^ word)
        }
        return mix(hash)
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: 0xa076_1d64_78bd_642f)
        return product.high ^ product.low
    }
}
