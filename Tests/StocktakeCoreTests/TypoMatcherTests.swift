import Testing

@testable import StocktakeCore

@Suite struct TypoMatcherTests {
    @Test func neighborsAreOneDigitChangesAndAdjacentSwaps() {
        let neighbors = TypoMatcher.neighbors(of: VTTag(number: 12, digits: 3))
        // 3 positions × 9 other digits, plus swaps of 0↔1 and 1↔2 (0 and 1 differ, 1 and 2 differ).
        #expect(neighbors.count == 27 + 2)
        let texts = Set(neighbors.map(\.tag.description))
        #expect(texts.contains("102"))  // swap of the first two digits
        #expect(texts.contains("021"))  // swap of the last two
        #expect(texts.contains("912"))
        #expect(!texts.contains("012"))
        #expect(!texts.contains("210"))
        #expect(neighbors.map(\.tag) == neighbors.map(\.tag).sorted())
    }

    @Test func equalAdjacentDigitsAreNotSwapped() {
        let neighbors = TypoMatcher.neighbors(of: VTTag(number: 11, digits: 2))
        #expect(neighbors.count == 18)
        #expect(neighbors.allSatisfy { $0.edit == "one digit differs" })
    }
}
