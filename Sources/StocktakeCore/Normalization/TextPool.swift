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
///
/// A large pool (the shared one holds a million serial numbers) is looked up at random, so nearly every memory read
/// of a lookup is a cache miss. A slot therefore holds 24 bits of its text's hash beside where the text's entry is,
/// and the entry holds the text's length and id beside its bytes: a text not in the pool is known from the slots
/// alone, and one in it costs one more read.
struct TextPool: Sendable {
    /// Where each text's entry starts in `entries`, by id.
    private var starts: [Int] = []
    /// The entry of each text, one after the other: its length (`UInt32`) and its id (`Int32`), then its bytes.
    private var entries: [UInt8] = []
    /// Open-addressing slots: where a text's entry starts, plus 1, in the low 40 bits (0 marks an empty slot), and
    /// the low 24 bits of its hash in the high 24. A text's first slot to try is `home(of:slotCount:)`.
    private var slots: [UInt64] = Array(repeating: 0, count: 64)

    /// The bytes before a text in its entry: its length and its id.
    private static let headerSize = 8
    /// The bits of a slot that say where its entry starts.
    private static let startBits: UInt64 = 1 << 40 - 1

    /// How many distinct texts the pool holds.
    var count: Int { starts.count }

    /// The bytes of the text with id `id`.
    subscript(id: Int32) -> ArraySlice<UInt8> {
        let start = starts[Int(id)] + Self.headerSize
        return entries[start..<start + length(at: starts[Int(id)])]
    }

    /// The id of `text`'s bytes, adding them when they are new (`isNew` then tells so).
    mutating func intern(_ text: UnsafeBufferPointer<UInt8>) -> (id: Int32, isNew: Bool) {
        intern(text, hash: Self.hash(text))
    }

    /// As `intern(_:)`, with the text's `hash(_:)` already known.
    mutating func intern(_ text: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (id: Int32, isNew: Bool) {
        let (slot, found) = find(text, hash: hash)
        if let found { return (found, false) }
        let id = Int32(count)
        let start = entries.count
        precondition(UInt64(start) < Self.startBits, "more than 1 TiB of texts in one pool")
        // The length and the id go in together, one append fewer per new text.
        withUnsafeBytes(of: (UInt32(text.count), id)) { entries.append(contentsOf: $0) }
        entries.append(contentsOf: text)
        starts.append(start)
        slots[slot] = Self.slot(start: start, hash: hash)
        if count * 2 > slots.count { grow() }
        return (id, true)
    }

    /// The id of `text`'s bytes, or `nil` when the pool does not hold them.
    func id(of text: UnsafeBufferPointer<UInt8>) -> Int32? {
        find(text, hash: Self.hash(text)).id
    }

    /// Whether the slots are large enough (128 KiB or more) that a caller interning many texts should prefetch.
    var isLarge: Bool { slots.count >= 1 << 14 }

    /// Starts fetching, without waiting for it, the first slot a lookup of a text whose hash is `hash` reads.
    ///
    /// It changes nothing, but is `mutating` (as is `prefetchEntry(hash:)`) so that a call on a pool stored in a class
    /// (a shard of `SharedTexts`) uses the pool in place: a non-mutating call copied it, retaining and releasing its
    /// three arrays for every text.
    @inline(__always)
    mutating func prefetchSlot(hash: UInt64) {
        let index = Self.home(of: hash, slotCount: slots.count)
        slots.withUnsafeBufferPointer { Prefetch.line(at: $0.baseAddress! + index) }
    }

    /// Starts fetching the entry a lookup of a text whose hash is `hash` compares, when its first slot names one
    /// with the same hash bits. It reads that slot: fetch it first (`prefetchSlot(hash:)`).
    @inline(__always)
    mutating func prefetchEntry(hash: UInt64) {
        let found = slots[Self.home(of: hash, slotCount: slots.count)]
        guard found != 0, found & ~Self.startBits == Self.tag(of: hash) else { return }
        entries.withUnsafeBytes { Prefetch.line(at: $0.baseAddress! + Int(found & Self.startBits) - 1) }
    }

    /// The slot holding `text` and its id, or the empty slot where it would go and `nil`.
    private func find(_ text: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (slot: Int, id: Int32?) {
        let mask = slots.count - 1
        let tag = Self.tag(of: hash)
        var index = Self.home(of: hash, slotCount: slots.count)
        return slots.withUnsafeBufferPointer { slots in
            entries.withUnsafeBytes { entries in
                while true {
                    let found = slots[index]
                    if found == 0 { return (index, nil) }
                    if found & ~Self.startBits == tag {
                        let start = Int(found & Self.startBits) - 1
                        if Int(entries.loadUnaligned(fromByteOffset: start, as: UInt32.self)) == text.count
                            && Self.equal(entries.baseAddress! + start + Self.headerSize, text)
                        {
                            return (index, entries.loadUnaligned(fromByteOffset: start + 4, as: Int32.self))
                        }
                    }
                    index = (index + 1) & mask
                }
            }
        }
    }

    /// Whether the `text.count` bytes at `stored` are those of `text`. A text of 8 to 16 bytes (a serial number) is
    /// compared as two words that overlap, without calling `memcmp`.
    @inline(__always)
    private static func equal(_ stored: UnsafeRawPointer, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = text.count
        guard let base = text.baseAddress, count > 0 else { return true }
        if count >= 8 && count <= 16 {
            let bytes = UnsafeRawPointer(base)
            return stored.loadUnaligned(as: UInt64.self) == bytes.loadUnaligned(as: UInt64.self)
                && stored.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                    == bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        return memcmp(stored, base, count) == 0
    }

    /// The slot of the entry at `start`, whose text's hash is `hash`.
    private static func slot(start: Int, hash: UInt64) -> UInt64 {
        tag(of: hash) | UInt64(start + 1)
    }

    /// The high bits of the slots of texts whose hash is `hash`: its low 24 bits.
    private static func tag(of hash: UInt64) -> UInt64 {
        (hash & 0xFF_FFFF) << 40
    }

    /// The first slot to try, of `slotCount` (a power of two), for a text whose hash is `hash`: the hash's bits
    /// just below its 6 highest (which choose a shard of `SharedTexts`), so that texts taken in the order of their
    /// hashes go through the slots from first to last (see `SharedTexts.ids(of:)`).
    static func home(of hash: UInt64, slotCount: Int) -> Int {
        // Tables start at 64 slots and only double: the shift is 6 to 58 bits, and needs no check.
        Int(truncatingIfNeeded: (hash &<< 6) &>> UInt64(64 - slotCount.trailingZeroBitCount))
    }

    /// The length of the text whose entry is at `start`.
    private func length(at start: Int) -> Int {
        entries.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: start, as: UInt32.self)) }
    }

    /// Doubles the slots, hashing each text again (in the order they were added, so `entries` is read in order).
    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        entries.withUnsafeBufferPointer { entries in
            for start in starts {
                let length = Int(UnsafeRawPointer(entries.baseAddress! + start).loadUnaligned(as: UInt32.self))
                let text = UnsafeBufferPointer(
                    rebasing: entries[start + Self.headerSize..<start + Self.headerSize + length])
                let hash = Self.hash(text)
                var index = Self.home(of: hash, slotCount: slots.count)
                while slots[index] != 0 { index = (index + 1) & mask }
                slots[index] = Self.slot(start: start, hash: hash)
            }
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
        if offset < count { hash = mix(hash ^ WordTail.littleEndian(raw, from: offset, count: count)) }
        return mix(hash)
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: 0xa076_1d64_78bd_642f)
        return product.high ^ product.low
    }
}
