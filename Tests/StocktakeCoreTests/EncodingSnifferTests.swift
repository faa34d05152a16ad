import Testing

@testable import StocktakeCore

/// The bytes of `text` in UTF-16, little-endian or big-endian, without a byte-order mark.
func utf16Bytes(_ text: String, bigEndian: Bool = false) -> [UInt8] {
    text.utf16.flatMap { unit -> [UInt8] in
        let low = UInt8(unit & 0xFF)
        let high = UInt8(unit >> 8)
        return bigEndian ? [high, low] : [low, high]
    }
}

/// The bytes of `text` in UTF-32, little-endian or big-endian, without a byte-order mark.
func utf32Bytes(_ text: String, bigEndian: Bool = false) -> [UInt8] {
    text.unicodeScalars.flatMap { scalar -> [UInt8] in
        let value = scalar.value
        let bytes = (0..<4).map { UInt8((value >> (8 * UInt32($0))) & 0xFF) }
        return bigEndian ? bytes.reversed() : bytes
    }
}

@Suite("EncodingSniffer")
struct EncodingSnifferTests {
    static let sheet = "VT Tag,Serial,Description\r\n100001,S1,Access point\r\n100002,S2,Switch\r\n"

    @Test func byteOrderMarksNameTheEncoding() {
        #expect(EncodingSniffer.unsupportedEncoding(of: [0xFF, 0xFE, 0x61, 0x00]) == nil)
        #expect(EncodingSniffer.unsupportedEncoding(of: [0xFE, 0xFF, 0x00, 0x61]) == nil)
        #expect(EncodingSniffer.unsupportedEncoding(of: [0xFF, 0xFE, 0x00, 0x00, 0x61, 0, 0, 0]) == "UTF-32 LE")
        #expect(EncodingSniffer.unsupportedEncoding(of: [0x00, 0x00, 0xFE, 0xFF, 0, 0, 0, 0x61]) == "UTF-32 BE")
        #expect(EncodingSniffer.unsupportedEncoding(of: [0xEF, 0xBB, 0xBF, 0x61, 0x00, 0x62, 0x00]) == nil)
    }

    @Test func utf16WithoutByteOrderMark() {
        #expect(
            EncodingSniffer.unsupportedEncoding(of: utf16Bytes(Self.sheet)[...])
                == "UTF-16 LE without a byte-order mark")
        #expect(
            EncodingSniffer.unsupportedEncoding(of: utf16Bytes(Self.sheet, bigEndian: true)[...])
                == "UTF-16 BE without a byte-order mark")
        // The smallest file that can tell: two characters.
        #expect(
            EncodingSniffer.unsupportedEncoding(of: [0x61, 0x00, 0x0A, 0x00]) == "UTF-16 LE without a byte-order mark")
    }

    @Test func utf16WithManyCharactersBeyondLatin1IsStillRecognised() {
        // Half the characters are Chinese, whose UTF-16 units hold no NUL: the ASCII half still shows.
        let text = "Tag,備註\n" + (1...50).map { "10000\($0 % 10),設備在倉庫\n" }.joined()
        #expect(
            EncodingSniffer.unsupportedEncoding(of: utf16Bytes(text)[...]) == "UTF-16 LE without a byte-order mark")
    }

    @Test func utf32WithoutByteOrderMark() {
        #expect(
            EncodingSniffer.unsupportedEncoding(of: utf32Bytes(Self.sheet)[...])
                == "UTF-32 LE without a byte-order mark")
        #expect(
            EncodingSniffer.unsupportedEncoding(of: utf32Bytes(Self.sheet, bigEndian: true)[...])
                == "UTF-32 BE without a byte-order mark")
    }

    @Test func utf8WithAFewNULsIsUTF8() {
        let text = Array("VT Tag,Serial\n100001,S\u{0}1\n100002,\u{0}\u{0}\n100003,A\u{0}B\u{0}C\u{0}\n".utf8)
        #expect(EncodingSniffer.unsupportedEncoding(of: text[...]) == nil)
        #expect(EncodingSniffer.unsupportedEncoding(of: Array("Tag\n1\n".utf8)[...]) == nil)
        #expect(EncodingSniffer.unsupportedEncoding(of: Array("é,ü\n".utf8)[...]) == nil)
    }

    @Test func nulsOnBothSidesAreNotUTF16() {
        #expect(EncodingSniffer.unsupportedEncoding(of: [UInt8](repeating: 0, count: 100)[...]) == nil)
        #expect(EncodingSniffer.unsupportedEncoding(of: [0x61, 0x00][...]) == nil, "one character cannot tell")
        #expect(EncodingSniffer.unsupportedEncoding(of: [][...]) == nil)
    }

    @Test func onlyTheFirstBytesAreLookedAt() {
        // UTF-8 text, then NULs in every other byte from the first 4 KiB on: the start decides.
        let text = Array(String(repeating: "100001,S1\n", count: 410).utf8) + utf16Bytes(Self.sheet)
        #expect(text.count > EncodingSniffer.sampleSize)
        #expect(EncodingSniffer.unsupportedEncoding(of: text[...]) == nil)
        let utf16 =
            utf16Bytes(String(repeating: Self.sheet, count: 40)) + Array(String(repeating: "1,S\n", count: 9).utf8)
        #expect(utf16.count > EncodingSniffer.sampleSize)
        #expect(EncodingSniffer.unsupportedEncoding(of: utf16[...]) == "UTF-16 LE without a byte-order mark")
    }
}
