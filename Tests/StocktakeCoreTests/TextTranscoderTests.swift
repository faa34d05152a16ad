import Testing

@testable import StocktakeCore

@Suite("TextTranscoder")
struct TextTranscoderTests {
    @Test func windows1252HighBytesFollowTheTable() {
        // é (0xE9, Latin-1), € (0x80) and ’ (0x92) from the 0x80–0x9F range; 0x81 is undefined: its C1 control.
        let bytes: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x2C, 0x80, 0x35, 0x2C, 0x4F, 0x92, 0x4E, 0x2C, 0x81, 0xFF]
        let text = String(decoding: TextTranscoder.utf8(fromWindows1252: bytes[...]), as: UTF8.self)
        #expect(text == "café,€5,O’N,\u{81}ÿ")
    }

    @Test func utf16DecodesPairsAndReplacesWhatIsBroken() {
        let little: [UInt8] = [
            0x61, 0x00, 0xE9, 0x00, 0xE5, 0x65, 0x3D, 0xD8, 0x00, 0xDE, 0x00, 0xD8, 0x62, 0x00, 0x63,
        ]
        #expect(
            String(decoding: TextTranscoder.utf8(fromUTF16: little[...], bigEndian: false), as: UTF8.self)
                == "aé日😀\u{FFFD}b\u{FFFD}")
        let big: [UInt8] = [0x00, 0x61, 0x00, 0xE9, 0x65, 0xE5]
        #expect(String(decoding: TextTranscoder.utf8(fromUTF16: big[...], bigEndian: true), as: UTF8.self) == "aé日")
    }
}
