import Testing

@testable import StocktakeCore

@Suite("UTF8Validator")
struct UTF8ValidatorTests {
    /// The validator's answer for `bytes`.
    private func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { UTF8Validator.firstInvalidOffset(in: $0) }
    }

    @Test func acceptsWellFormedText() {
        #expect(firstInvalidOffset([]) == nil)
        #expect(firstInvalidOffset(Array("plain ASCII".utf8)) == nil)
        #expect(firstInvalidOffset(Array("é日本😀\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}".utf8)) == nil)
        #expect(firstInvalidOffset([0xED, 0x9F, 0xBF]) == nil)  // U+D7FF, just below the surrogates
        #expect(firstInvalidOffset([0xEE, 0x80, 0x80]) == nil)  // U+E000, just above them
    }

    @Test func rejectsIllFormedSequencesAtTheirFirstByte() {
        #expect(firstInvalidOffset([0x61, 0xFF]) == 1)
        #expect(firstInvalidOffset([0x80]) == 0)  // continuation byte without a lead
        #expect(firstInvalidOffset([0xC0, 0x80]) == 0)  // overlong NUL
        #expect(firstInvalidOffset([0xC1, 0xBF]) == 0)  // overlong
        #expect(firstInvalidOffset([0x61, 0xE0, 0x80, 0x80]) == 1)  // overlong three-byte form
        #expect(firstInvalidOffset([0xF0, 0x80, 0x80, 0x80]) == 0)  // overlong four-byte form
        #expect(firstInvalidOffset([0xED, 0xA0, 0x80]) == 0)  // surrogate U+D800
        #expect(firstInvalidOffset([0xF4, 0x90, 0x80, 0x80]) == 0)  // above U+10FFFF
        #expect(firstInvalidOffset([0xF5, 0x80, 0x80, 0x80]) == 0)
        #expect(firstInvalidOffset([0x63, 0x61, 0x66, 0xC3]) == 3)  // cut short at the end
        #expect(firstInvalidOffset([0xE6, 0x97]) == 0)
        #expect(firstInvalidOffset([0xE6, 0x97, 0x41]) == 0)  // cut short by an ASCII byte
        #expect(firstInvalidOffset([0xC3, 0xA9, 0xF0, 0x9F, 0x98]) == 2)
    }

    @Test func agreesWithStandardLibraryOnAllTwoByteInputs() {
        var disagreements: [[UInt8]] = []
        for first in 0...255 {
            for second in 0...255 {
                let bytes = [UInt8(first), UInt8(second)]
                let valid = String(validating: bytes, as: UTF8.self) != nil
                if (firstInvalidOffset(bytes) == nil) != valid { disagreements.append(bytes) }
            }
        }
        #expect(disagreements == [])
    }

    @Test func agreesWithStandardLibraryOnAllThreeByteSequencesWithNonASCIILead() {
        var disagreements: [[UInt8]] = []
        for first in 0xC0...0xFF {
            for second in 0x70...0xC8 {
                for third in 0x70...0xC8 {
                    let bytes = [UInt8(first), UInt8(second), UInt8(third)]
                    let valid = String(validating: bytes, as: UTF8.self) != nil
                    if (firstInvalidOffset(bytes) == nil) != valid { disagreements.append(bytes) }
                }
            }
        }
        #expect(disagreements == [])
    }

    /// ASCII is skipped 32 bytes at a time, then eight: a bad byte, or a character of two to four bytes, is found at
    /// every offset of a run of ASCII, in each word of a block of 32, on their boundaries, in the words after the last
    /// whole block and in the bytes after the last whole word.
    @Test func everyOffsetInARunOfASCIIIsChecked() {
        for offset in 0..<80 {
            let ascii = [UInt8](repeating: UInt8(ascii: "a"), count: offset)
            let tail = [UInt8](repeating: UInt8(ascii: "z"), count: 79 - offset)
            let bad = ascii + [0xFF] + tail
            #expect(bad.withUnsafeBufferPointer { UTF8Validator.firstInvalidOffset(in: $0) } == offset)
            let truncated = ascii + [0xE2, 0x82]
            #expect(truncated.withUnsafeBufferPointer { UTF8Validator.firstInvalidOffset(in: $0) } == offset)
            for character in ["é", "€", "😀"] {
                let good = ascii + Array(character.utf8) + tail
                #expect(good.withUnsafeBufferPointer { UTF8Validator.firstInvalidOffset(in: $0) } == nil)
            }
        }
    }
}
