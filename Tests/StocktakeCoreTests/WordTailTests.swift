import Testing

@testable import StocktakeCore

struct WordTailTests {
    /// The word a loop adding one byte at a time gives.
    static func byteLoop(_ bytes: [UInt8], from offset: Int) -> UInt64 {
        var word: UInt64 = 0
        for index in offset..<bytes.count { word |= UInt64(bytes[index]) << (8 * UInt64(index - offset)) }
        return word
    }

    @Test func theLastBytesArePackedLittleEndian() {
        func tail(_ text: String, from offset: Int) -> UInt64 {
            Array(text.utf8).withUnsafeBytes { WordTail.littleEndian($0.baseAddress!, from: offset, count: $0.count) }
        }
        #expect(tail("a", from: 0) == 0x61)
        #expect(tail("ab", from: 0) == 0x62_61)
        #expect(tail("abc", from: 0) == 0x63_62_61)
        #expect(tail("abcd", from: 0) == 0x6463_6261)
        #expect(tail("abcdefg", from: 0) == 0x67_6665_6463_6261)
        #expect(tail("abcdefghijk", from: 8) == 0x6B_6A69)
    }

    @Test func everyTailOfEveryLengthToTwentyFourIsTheByteLoopsWord() {
        let bytes = (0..<24).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 200) }
        for count in 1...24 {
            let text = Array(bytes[0..<count])
            for offset in stride(from: count >= 8 ? count - count % 8 : 0, to: count, by: 8) {
                let word = text.withUnsafeBytes { WordTail.littleEndian($0.baseAddress!, from: offset, count: count) }
                #expect(word == Self.byteLoop(text, from: offset), "\(count) bytes from \(offset)")
            }
        }
    }
}
