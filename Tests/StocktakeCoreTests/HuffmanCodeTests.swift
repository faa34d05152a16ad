import Testing

@testable import StocktakeCore

@Suite("HuffmanCode")
struct HuffmanCodeTests {
    /// Kraft's sum of the lengths, in units of 2^-limit: exactly 2^limit for a complete code.
    static func kraft(_ code: HuffmanCode, limit: Int) -> Int {
        code.lengths.filter { $0 > 0 }.reduce(0) { $0 + 1 << (limit - Int($1)) }
    }

    /// Whether no code is a prefix of another (codes are stored bit-reversed: a code's first bit is bit 0).
    static func isPrefixFree(_ code: HuffmanCode) -> Bool {
        let used = code.lengths.indices.filter { code.lengths[$0] > 0 }
        for first in used {
            for second in used where second != first && code.lengths[first] <= code.lengths[second] {
                let mask = (1 << Int(code.lengths[first])) - 1
                if Int(code.codes[second]) & mask == Int(code.codes[first]) { return false }
            }
        }
        return true
    }

    @Test("the canonical codes of RFC 1951's example (lengths 3,3,3,3,3,2,4,4), bit-reversed")
    func rfcExample() {
        let codes = HuffmanCode.canonicalCodes(lengths: [3, 3, 3, 3, 3, 2, 4, 4], limit: 15)
        let expected = [0b010, 0b011, 0b100, 0b101, 0b110, 0b00, 0b1110, 0b1111]
        let lengths = [3, 3, 3, 3, 3, 2, 4, 4]
        for index in expected.indices {
            var reversed = 0
            for bit in 0..<lengths[index] where expected[index] & (1 << bit) != 0 {
                reversed |= 1 << (lengths[index] - 1 - bit)
            }
            #expect(Int(codes[index]) == reversed, "symbol \(index)")
        }
    }

    @Test("frequencies 1, 1, 2, 4 give the optimal lengths 3, 3, 2, 1; absent symbols get none")
    func optimalLengths() {
        let code = HuffmanCode(frequencies: [1, 1, 0, 2, 4], limit: 15)
        #expect(code.lengths == [3, 3, 0, 2, 1])
        #expect(code.cost(of: [1, 1, 0, 2, 4]) == 3 + 3 + 4 + 4)
    }

    /// Ties are broken by symbol, the lower one counted as the less frequent: the workbooks' bytes depend on it, so
    /// the same reconciliation makes the same `.xlsx` whichever build made it.
    @Test("equal frequencies give the higher symbols the shorter codes")
    func tiesGoBySymbol() {
        #expect(HuffmanCode(frequencies: [1, 1, 1], limit: 15).lengths == [2, 2, 1])
        #expect(HuffmanCode(frequencies: [3, 0, 3, 3, 3, 3], limit: 15).lengths == [3, 0, 3, 2, 2, 2])
    }

    @Test("one symbol or none still gives a complete code of two one-bit codes")
    func fewSymbols() {
        let one = HuffmanCode(frequencies: [0, 0, 5, 0], limit: 15)
        #expect(one.lengths == [1, 0, 1, 0])
        let none = HuffmanCode(frequencies: [0, 0, 0], limit: 7)
        #expect(none.lengths == [1, 1, 0])
        let first = HuffmanCode(frequencies: [9, 0, 0], limit: 7)
        #expect(first.lengths == [1, 1, 0])
    }

    @Test("Fibonacci frequencies, whose Huffman code is 29 bits deep, are cut to the limit and stay complete")
    func limitsLength() {
        var frequencies: [UInt32] = [1, 1]
        while frequencies.count < 30 {
            frequencies.append(frequencies[frequencies.count - 1] + frequencies[frequencies.count - 2])
        }
        for limit in [15, 7] {
            let input = limit == 7 ? Array(frequencies[0..<19]) : frequencies
            let code = HuffmanCode(frequencies: input, limit: limit)
            #expect(code.lengths.allSatisfy { $0 >= 1 && Int($0) <= limit })
            #expect(Self.kraft(code, limit: limit) == 1 << limit)
            #expect(Self.isPrefixFree(code))
            // More frequent symbols never get longer codes.
            for index in 1..<input.count { #expect(code.lengths[index] <= code.lengths[index - 1]) }
        }
    }

    @Test("random frequencies over deflate's alphabets give complete, prefix-free codes within the limit")
    func randomFrequencies() {
        var state: UInt64 = 42
        for round in 0..<200 {
            let count = [286, 30, 19][round % 3]
            let limit = count == 19 ? 7 : 15
            let frequencies: [UInt32] = (0..<count).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let value = UInt32(truncatingIfNeeded: state >> 33)
                // Mostly absent symbols and frequencies spread over many orders of magnitude.
                return value % 3 == 0 ? 0 : value >> (value % 31)
            }
            let code = HuffmanCode(frequencies: frequencies, limit: limit)
            #expect(code.lengths.allSatisfy { Int($0) <= limit })
            #expect(Self.kraft(code, limit: limit) == 1 << limit)
            #expect(Self.isPrefixFree(code))
            for (symbol, frequency) in frequencies.enumerated() where frequency > 0 {
                #expect(code.lengths[symbol] > 0)
            }
        }
    }
}
