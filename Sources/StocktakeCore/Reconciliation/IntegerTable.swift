/// A map from 64-bit keys to small integers, stored in two flat arrays with open addressing.
///
/// Identification looks up millions of tags, CNS numbers and MAC addresses, which are integers already: a
/// multiplicative hash and linear probing cost a few instructions per lookup, where a `Dictionary` seeds and runs
/// SipHash each time. `UInt64.max` marks an empty slot, so it cannot be a key (no tag, CNS number, MAC address or
/// interned id reaches it).
struct IntegerTable {
    private static let empty = UInt64.max
    private var keys: [UInt64]
    private var values: [Int32]
    private var mask: Int
    /// The number of keys held.
    private(set) var count = 0

    /// A table with room for `capacity` keys before it grows.
    init(capacity: Int = 0) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = Array(repeating: Self.empty, count: size)
        values = Array(repeating: 0, count: size)
        mask = size - 1
    }

    /// The value of `key`, or `nil`.
    subscript(key: UInt64) -> Int32? {
        var slot = Self.slot(of: key, mask: mask)
        while true {
            let found = keys[slot]
            if found == key { return values[slot] }
            if found == Self.empty { return nil }
            slot = (slot + 1) & mask
        }
    }

    /// The value of `key`; when absent, stores `value` for it and returns `nil`.
    mutating func value(of key: UInt64, insertingIfAbsent value: Int32) -> Int32? {
        precondition(key != Self.empty, "UInt64.max cannot be a key")
        var slot = Self.slot(of: key, mask: mask)
        while true {
            let found = keys[slot]
            if found == key { return values[slot] }
            if found == Self.empty { break }
            slot = (slot + 1) & mask
        }
        keys[slot] = key
        values[slot] = value
        count += 1
        if count * 2 > keys.count { grow() }
        return nil
    }

    /// Stores `value` for `key`, replacing any value it had.
    mutating func set(_ value: Int32, for key: UInt64) {
        precondition(key != Self.empty, "UInt64.max cannot be a key")
        var slot = Self.slot(of: key, mask: mask)
        while true {
            let found = keys[slot]
            if found == key {
                values[slot] = value
                return
            }
            if found == Self.empty { break }
            slot = (slot + 1) & mask
        }
        keys[slot] = key
        values[slot] = value
        count += 1
        if count * 2 > keys.count { grow() }
    }

    /// Fibonacci hashing: the key times 2⁶⁴/φ, keeping the high bits, spreads consecutive tags over the table.
    @inline(__always)
    private static func slot(of key: UInt64, mask: Int) -> Int {
        let mixed = (key ^ (key >> 32)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 20) & mask
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        let size = keys.count * 2
        keys = Array(repeating: Self.empty, count: size)
        values = Array(repeating: 0, count: size)
        mask = size - 1
        for index in oldKeys.indices where oldKeys[index] != Self.empty {
            var slot = Self.slot(of: oldKeys[index], mask: mask)
            while keys[slot] != Self.empty { slot = (slot + 1) & mask }
            keys[slot] = oldKeys[index]
            values[slot] = oldValues[index]
        }
    }
}
