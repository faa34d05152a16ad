import Testing

@testable import StocktakeCore

@Suite("TextTranscoder")
struct TextTranscoderTests {
    /// The text of `bytes` converted from `encoding` in pieces of `pieceSize` bytes.
    static func converted(_ bytes: [UInt8], from encoding: TextEncoding, pieceSize: Int) -> String {
        var transcoder = TextTranscoder(from: encoding)
        var output: [UInt8] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + pieceSize, bytes.count)
            bytes[start..<end].withUnsafeBufferPointer { transcoder.convert($0, appendingTo: &output) }
            start = end
        }
        transcoder.finish(appendingTo: &output)
        return String(decoding: output, as: UTF8.self)
    }

    @Test(arguments: [1, 2, 3, 100])
    func windows1252HighBytesFollowTheTable(pieceSize: Int) {
        // é (0xE9, Latin-1), € (0x80) and ’ (0x92) from the 0x80–0x9F range; ÿ is 0xFF.
        let bytes: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x2C, 0x80, 0x35, 0x2C, 0x4F, 0x92, 0x4E, 0x2C, 0xFF]
        #expect(Self.converted(bytes, from: .windows1252, pieceSize: pieceSize) == "café,€5,O’N,ÿ")
    }

    @Test func theFiveUndefinedWindows1252BytesBecomeTheirC1Controls() {
        // As the WHATWG Encoding Standard decodes them: nothing is lost, nothing is replaced.
        let bytes: [UInt8] = [0x81, 0x8D, 0x8F, 0x90, 0x9D]
        #expect(
            Array(Self.converted(bytes, from: .windows1252, pieceSize: 5).unicodeScalars.map(\.value))
                == [0x81, 0x8D, 0x8F, 0x90, 0x9D])
    }

    @Test func everyWindows1252ByteHasOneCharacter() {
        let bytes = (0...255).map { UInt8($0) }
        let text = Self.converted(bytes, from: .windows1252, pieceSize: 7)
        #expect(text.unicodeScalars.count == 256)
        #expect(!text.unicodeScalars.contains("\u{FFFD}"))
    }

    @Test(arguments: [1, 2, 3, 5, 100])
    func utf16DecodesPairsAcrossPiecesAndReplacesWhatIsBroken(pieceSize: Int) {
        // a é 日 😀 (a surrogate pair), a lone high surrogate before b, a lone low surrogate, and a last odd byte.
        let little: [UInt8] = [
            0x61, 0x00, 0xE9, 0x00, 0xE5, 0x65, 0x3D, 0xD8, 0x00, 0xDE, 0x00, 0xD8, 0x62, 0x00, 0x00, 0xDC, 0x63,
        ]
        #expect(
            Self.converted(little, from: .utf16LittleEndian, pieceSize: pieceSize) == "aé日😀\u{FFFD}b\u{FFFD}\u{FFFD}")
        let big: [UInt8] = [0x00, 0x61, 0x00, 0xE9, 0x65, 0xE5, 0xD8, 0x3D, 0xDE, 0x00]
        #expect(Self.converted(big, from: .utf16BigEndian, pieceSize: pieceSize) == "aé日😀")
    }

    @Test func aHighSurrogateAtTheEndIsReplaced() {
        #expect(Self.converted([0x3D, 0xD8], from: .utf16LittleEndian, pieceSize: 1) == "\u{FFFD}")
        #expect(Self.converted([0x3D, 0xD8, 0x61], from: .utf16LittleEndian, pieceSize: 2) == "\u{FFFD}\u{FFFD}")
    }
}
