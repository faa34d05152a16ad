/// A hash table from VT tag numbers to 32-bit values, with open addressing in two flat arrays.
///
/// Write-back looks up the merged asset of every central row; a `Dictionary` keyed by `VTTag` hashes each key with
/// seeded SipHash and keeps a heap node per entry, where this table multiplies the number once and probes in place.
struct TagTable {
    /// The key of an empty slot: no tag number reaches it (19 digits at most are below `UInt64.max`).
    private static let emptyKey = UInt64.max

    private var keys: [UInt64]
    private var values: [Int32]
    private let shift: UInt64
    private var count = 0

    /// An empty table for about `capacity` keys.
    init(capacity: Int) {
        var bits = 4
        while 1 << bits < capacity * 2 { bits += 1 }
        keys = Array(repeating: Self.emptyKey, count: 1 << bits)
        values = Array(repeating: 0, count: 1 << bits)
        shift = UInt64(64 - bits)
    }

    /// The value of `key`, or `nil` when it is absent.
    func value(_ key: UInt64) -> Int32? {
        let slot = find(key)
        return keys[slot] == key ? values[slot] : nil
    }

    /// Sets the value of `key`, adding it when absent.
    mutating func set(_ key: UInt64, _ value: Int32) {
        precondition(key != Self.emptyKey, "a tag number is below UInt64.max")
        let slot = find(key)
        if keys[slot] != key {
            keys[slot] = key
            count += 1
            precondition(count * 2 <= keys.count, "the table was sized for fewer keys")
        }
        values[slot] = value
    }

    /// The slot holding `key`, or the empty slot where it would go.
    private func find(_ key: UInt64) -> Int {
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while keys[slot] != key && keys[slot] != Self.emptyKey {
            slot = (slot + 1) & mask
        }
        return slot
    }
}
