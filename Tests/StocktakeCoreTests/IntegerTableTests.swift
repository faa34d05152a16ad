import Testing

@testable import StocktakeCore

@Suite("IntegerTable: 64-bit keys to small integers")
struct IntegerTableTests {
    @Test func keepsEveryKeyThroughGrowthAndAgreesWithADictionary() {
        var table = IntegerTable()
        var expected: [UInt64: Int32] = [:]
        var generator = SystemRandomNumberGenerator()
        // Consecutive tags, random MACs and keys that collide in the low bits all land in the same table.
        let keys =
            (0..<5_000).map { UInt64($0) }
            + (0..<5_000).map { _ in UInt64.random(in: 0..<(1 << 48), using: &generator) }
            + (0..<2_000).map { UInt64($0) << 40 }
        for (index, key) in keys.enumerated() {
            let before = table.value(of: key, insertingIfAbsent: Int32(index))
            #expect(before == expected[key])
            if expected[key] == nil { expected[key] = Int32(index) }
        }
        #expect(table.count == expected.count)
        for (key, value) in expected { #expect(table[key] == value) }
        #expect(table[UInt64(1) << 50 | 7] == nil)
    }

    /// A table of a million tags asks for huge pages for its slots (from 8 MB on), presized or grown into that size:
    /// either way every key keeps its value and an empty slot reads as empty.
    @Test(arguments: [600_000, 0])
    func aLargeTableKeepsEveryKey(capacity: Int) {
        var table = IntegerTable(capacity: capacity)
        let count = 600_000
        for index in 0..<count {
            #expect(table.value(of: UInt64(index) * 7 + 1_000_000, insertingIfAbsent: Int32(index)) == nil)
        }
        #expect(table.count == count)
        var wrong = 0
        for index in 0..<count where table[UInt64(index) * 7 + 1_000_000] != Int32(index) { wrong += 1 }
        #expect(wrong == 0)
        #expect(table[3] == nil)
        #expect(table[UInt64(count) * 7 + 1_000_000] == nil)
    }

    @Test func setReplacesAValueAndAddsAMissingKey() {
        var table = IntegerTable(capacity: 2)
        #expect(table.value(of: 42, insertingIfAbsent: 1) == nil)
        table.set(-3, for: 42)
        table.set(9, for: 43)
        #expect(table[42] == -3)
        #expect(table[43] == 9)
        #expect(table.count == 2)
    }

    @Test func zeroIsAKeyLikeAnyOther() {
        var table = IntegerTable()
        #expect(table[0] == nil)
        #expect(table.value(of: 0, insertingIfAbsent: 5) == nil)
        #expect(table[0] == 5)
    }
}
