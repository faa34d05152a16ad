import Testing

@testable import StocktakeCore

@Suite struct TagSortTests {
    @Test(arguments: [0, 1, 2, 1000, 70_000])
    func sortsKeysWithTheirValuesStably(count: Int) {
        var generator = CSVTestRandomGenerator(seed: UInt64(20_261_130 + count))
        for range: ClosedRange<UInt64> in [0...9, 0...9_999_999, 0...9_999_999_999_999_999_999, 256...511] {
            var keys = (0..<count).map { _ in UInt64.random(in: range, using: &generator) }
            var values = (0..<UInt32(count)).map { $0 }
            let expected = zip(keys, values).sorted { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
            TagSort.sort(keys: &keys, values: &values)
            #expect(keys == expected.map(\.0), "\(range)")
            #expect(values == expected.map(\.1), "\(range)")
        }
    }
}
