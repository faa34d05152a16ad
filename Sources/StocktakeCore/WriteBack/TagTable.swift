/// A hash table from VT tag numbers to 32-bit values, with open addressing in one flat array.
///
/// Write-back looks up the merged asset of every central row; a `Dictionary` keyed by `VTTag` hashes each key with
/// seeded SipHash, where this table multiplies the number once and finds key and value in the same cache line.
struct TagTable {
    /// One slot: a key and its value.
    private struct Slot {
        var key: UInt64
        var value: Int32
    }

    /// The key of an empty slot: no tag number reaches it (19 digits at most are below `UInt64.max`).
    private static let emptyKey = UInt64.max

    private var slots: [Slot]
    private let shift: UInt64
    private var count = 0

    /// An empty table for about `capacity` keys.
    init(capacity: Int) {
        var bits = 4
        while 1 << bits < capacity * 2 { bits += 1 }
        slots = Array(repeating: Slot(key: Self.emptyKey, value: 0), count: 1 << bits)
        shift = UInt64(64 - bits)
    }

    /// The value of `key`, or `nil` when it is absent.
    func value(_ key: UInt64) -> Int32? {
        let slot = find(key)
        return slots[slot].key == key ? slots[slot].value : nil
    }

    /// Sets the value of `key`, adding it when absent.
    mutating func set(_ key: UInt64, _ value: Int32) {
        precondition(key != Self.emptyKey, "a tag number is below UInt64.max")
        let slot = find(key)
        if slots[slot].key != key {
            slots[slot].key = key
            count += 1
            precondition(count * 2 <= slots.count, "the table was sized for fewer keys")
        }
        slots[slot].value = value
    }

    /// The slot holding `key`, or the empty slot where it would go.
    private func find(_ key: UInt64) -> Int {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while slots[slot].key != key && slots[slot].key != Self.emptyKey {
            slot = (slot + 1) & mask
        }
        return slot
    }
}
