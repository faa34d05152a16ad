import Testing

@testable import StocktakeCore

@Suite("ControlCharacters")
struct ControlCharactersTests {
    @Test func lineBreaksTabsAndEscapesAreShown() {
        #expect(
            ControlCharacters.escaped("Notes\n2026-11-24T02:15:00Z [victim] pushed\r\tx\u{1B}[2J")
                == #"Notes\n2026-11-24T02:15:00Z [victim] pushed\r\tx\x1B[2J"#)
    }

    @Test func everyC0ControlAndDeleteIsEscaped() {
        let text = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init) + ["\u{7F}"]))
        #expect(
            ControlCharacters.escaped(text)
                == #"\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0B\x0C\r\x0E\x0F"#
                + #"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1A\x1B\x1C\x1D\x1E\x1F\x7F"#)
    }

    @Test func c1ControlsAndUnicodeSeparatorsAreEscaped() {
        #expect(ControlCharacters.escaped("a\u{80}b\u{85}c\u{9B}2J\u{9F}") == #"a\u{80}b\u{85}c\u{9B}2J\u{9F}"#)
        #expect(ControlCharacters.escaped("line\u{2028}para\u{2029}end") == #"line\u{2028}para\u{2029}end"#)
    }

    @Test func otherTextIsKept() {
        let text = "VT Tag, Seriennr. (alt) — 設備 é ü \u{A0}\u{A9}\u{2027}\u{202A} \\n C:\\data \"quoted\" 🙂"
        #expect(ControlCharacters.escaped(text) == text)
        #expect(ControlCharacters.escaped("") == "")
        #expect(ControlCharacters.escaped("plain") == "plain")
    }

    @Test func theResultHoldsNoControlCharacter() {
        let scalars = (0..<0x3000).compactMap(Unicode.Scalar.init)
        let escaped = ControlCharacters.escaped(String(String.UnicodeScalarView(scalars)))
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(!escaped.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
        #expect(escaped.split(separator: "\n", omittingEmptySubsequences: false).count == 1)
    }
}
