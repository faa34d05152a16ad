import Testing

@testable import StocktakeCore

@Suite struct TagTableTests {
    @Test func findsWhatWasSetAndNothingElse() {
        var table = TagTable(capacity: 3)
        table.set(1234, 7)
        table.set(0, 1)
        table.set(9_999_999_999_999_999_999, 2)
        #expect(table.value(1234) == 7)
        #expect(table.value(0) == 1)
        #expect(table.value(9_999_999_999_999_999_999) == 2)
        #expect(table.value(1235) == nil)
        table.set(1234, -1)
        #expect(table.value(1234) == -1)
    }

    @Test func holdsAsManyKeysAsItWasSizedFor() {
        let count = 50_000
        var table = TagTable(capacity: count)
        // Keys that differ only in high bits, or are close together, must not lose each other.
        let keys = (0..<UInt64(count)).map { $0 % 2 == 0 ? $0 << 40 : 1_000_000 + $0 }
        for (index, key) in keys.enumerated() { table.set(key, Int32(index)) }
        for (index, key) in keys.enumerated() { #expect(table.value(key) == Int32(index)) }
        #expect(table.value(3) == nil)
    }
}
