import Testing

@testable import StocktakeGenerator

@Suite struct SeededRandomTests {
    @Test func firstOutputsArePinned() {
        var random = SeededRandom(seed: 2014)
        #expect(random.next() == 0xC5D0_11D4_2ADE_5404)
        #expect(random.next() == 0x02B7_4F80_E778_F7C3)
        #expect(random.next() == 0xA0CD_D6C5_2374_3EDB)
    }

    @Test func seedZeroMatchesTheSplitMix64Reference() {
        var random = SeededRandom(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
    }

    @Test func boundedDrawsAndShuffleArePinned() {
        var random = SeededRandom(seed: 7)
        #expect((0..<5).map { _ in random.below(10) } == [7, 4, 6, 3, 4])
        var shuffler = SeededRandom(seed: 7)
        var values = Array(1...8)
        shuffler.shuffle(&values)
        #expect(values == [2, 5, 6, 3, 7, 1, 4, 8])
    }

    @Test func integerStaysInItsRange() {
        var random = SeededRandom(seed: 99)
        let draws = (0..<1_000).map { _ in random.integer(in: 3...5) }
        #expect(Set(draws) == [3, 4, 5])
    }

    @Test func chanceOfZeroAndOneAreNeverAndAlways() {
        var random = SeededRandom(seed: 5)
        #expect((0..<200).allSatisfy { _ in !random.chance(0) })
        #expect((0..<200).allSatisfy { _ in random.chance(1) })
    }
}
