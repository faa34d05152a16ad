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

    @Test func neighborsAreThoseOfEditingTheWrittenDigits() {
        // Every neighbor, in order, is what changing or swapping the digits of the tag's text gives.
        var random = SystemRandomNumberGenerator()
        var tags = [VTTag(number: 0, digits: 6), VTTag(number: 1, digits: 1), VTTag(number: 999_999, digits: 6)]
        tags.append(VTTag(number: 999_999_999_999_999_999, digits: 18))
        for _ in 0..<500 {
            let digits = Int.random(in: 1...18, using: &random)
            var limit: UInt64 = 1
            for _ in 0..<digits { limit *= 10 }
            // Small numbers too, so that leading zeros and repeated digits are edited.
            let number =
                Bool.random(using: &random)
                ? UInt64.random(in: 0..<limit, using: &random) : UInt64.random(in: 0..<min(limit, 1000), using: &random)
            tags.append(VTTag(number: number, digits: digits))
        }
        for tag in tags {
            let neighbors = TypoMatcher.neighbors(of: tag)
            let expected = Self.neighborsByText(of: tag)
            #expect(neighbors.map(\.tag) == expected.map(\.tag), "\(tag)")
            #expect(neighbors.map(\.edit) == expected.map(\.edit), "\(tag)")
        }
    }

    /// The neighbors made by editing the tag's text, one copy per edit.
    static func neighborsByText(of tag: VTTag) -> [(tag: VTTag, edit: String)] {
        let digits = Array(tag.description.utf8)
        var result: [(tag: VTTag, edit: String)] = []
        func make(_ text: [UInt8]) -> VTTag {
            VTTag(number: UInt64(String(decoding: text, as: UTF8.self))!, digits: tag.digits)
        }
        for position in digits.indices {
            for digit in UInt8(ascii: "0")...UInt8(ascii: "9") where digit != digits[position] {
                var changed = digits
                changed[position] = digit
                result.append((make(changed), "one digit differs"))
            }
            if position + 1 < digits.count, digits[position] != digits[position + 1] {
                var swapped = digits
                swapped.swapAt(position, position + 1)
                result.append((make(swapped), "two adjacent digits are swapped"))
            }
        }
        return result.sorted { $0.tag < $1.tag }
    }
}
