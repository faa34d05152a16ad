#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A map from 64-bit keys to small integers, stored in two flat arrays with open addressing.
///
/// Identification looks up millions of tags, CNS numbers and MAC addresses, which are integers already: a
/// multiplicative hash and linear probing cost a few instructions per lookup, where a `Dictionary` seeds and runs
/// SipHash each time. `UInt64.max` marks an empty slot, so it cannot be a key (no tag, CNS number, MAC address or
/// interned id reaches it).
struct IntegerTable {
    private static let empty = UInt64.max
    /// A key and its value side by side, so a lookup reads one cache line, not one in each of two arrays.
    private struct Slot {
        var key: UInt64
        var value: Int32
    }
    private var slots: [Slot]
    private var mask: Int
    /// The number of keys held.
    private(set) var count = 0

    /// A table with room for `capacity` keys before it grows.
    init(capacity: Int = 0) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Self.emptySlots(size)
        mask = size - 1
    }

    /// `count` empty slots. A large table (a million tags: 32 MB) is looked up at random, so the whole huge pages
    /// inside it are asked for before it is filled, as `FingerprintTable` does: a lookup then mostly saves a walk of
    /// the page tables (identification of 1,000,000 assets: about 0.04 s of 0.4).
    private static func emptySlots(_ count: Int) -> [Slot] {
        [Slot](unsafeUninitializedCapacity: count) { buffer, initialized in
            let bytes = count * MemoryLayout<Slot>.stride
            let hugePage = 2 << 20
            if bytes >= 4 * hugePage, let base = buffer.baseAddress {
                let start = (Int(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
                let end = (Int(bitPattern: base) + bytes) & ~(hugePage - 1)
                #if os(Linux)
                    _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE)
                #endif
            }
            buffer.initialize(repeating: Slot(key: Self.empty, value: 0))
            initialized = count
        }
    }

    /// The value of `key`, or `nil`.
    subscript(key: UInt64) -> Int32? {
        var slot = Self.slot(of: key, mask: mask)
        while true {
            let found = slots[slot].key
            if found == key { return slots[slot].value }
            if found == Self.empty { return nil }
            slot = (slot + 1) & mask
        }
    }

    /// The value of `key`; when absent, stores `value` for it and returns `nil`.
    mutating func value(of key: UInt64, insertingIfAbsent value: Int32) -> Int32? {
        precondition(key != Self.empty, "UInt64.max cannot be a key")
        var slot = Self.slot(of: key, mask: mask)
        while true {
            let found = slots[slot].key
            if found == key { return slots[slot].value }
            if found == Self.empty { break }
            slot = (slot + 1) & mask
        }
        slots[slot] = Slot(key: key, value: value)
        count += 1
        if count * 2 > slots.count { grow() }
        return nil
    }

    /// Starts fetching the slot a lookup of `key` begins at, without waiting for it. A caller going through millions
    /// of keys asks for the key a few places ahead of the one it looks up, so that the lookups' waits for memory
    /// overlap instead of following one another.
    ///
    /// It changes nothing, but is `mutating` so that a call uses the table in place: a non-mutating call on a
    /// variable copied it first, retaining and releasing its array for every key.
    @inline(__always)
    mutating func prefetch(_ key: UInt64) {
        let slot = Self.slot(of: key, mask: mask)
        slots.withUnsafeBufferPointer { Prefetch.line(at: $0.baseAddress! + slot) }
    }

    /// Whether the table outgrows a core's cache, so that prefetching pays (`Prefetch.pays(bytes:)`).
    var outgrowsCache: Bool { Prefetch.pays(bytes: slots.count * MemoryLayout<Slot>.stride) }

    /// Stores `value` for `key`, replacing any value it had.
    mutating func set(_ value: Int32, for key: UInt64) {
        precondition(key != Self.empty, "UInt64.max cannot be a key")
        var slot = Self.slot(of: key, mask: mask)
        while true {
            let found = slots[slot].key
            if found == key {
                slots[slot].value = value
                return
            }
            if found == Self.empty { break }
            slot = (slot + 1) & mask
        }
        slots[slot] = Slot(key: key, value: value)
        count += 1
        if count * 2 > slots.count { grow() }
    }

    /// Fibonacci hashing: the key times 2⁶⁴/φ, keeping the high bits, spreads consecutive tags over the table.
    @inline(__always)
    private static func slot(of key: UInt64, mask: Int) -> Int {
        let mixed = (key ^ (key >> 32)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 20) & mask
    }

    private mutating func grow() {
        let old = slots
        slots = Self.emptySlots(old.count * 2)
        mask = slots.count - 1
        for entry in old where entry.key != Self.empty {
            var slot = Self.slot(of: entry.key, mask: mask)
            while slots[slot].key != Self.empty { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }
}
