import Testing

@testable import StocktakeCore

@Suite("TextEncoding")
struct TextEncodingTests {
    @Test func settingNamesAreAcceptedIgnoringCase() {
        #expect(TextEncoding(name: "utf-8") == .utf8)
        #expect(TextEncoding(name: "UTF8") == .utf8)
        for name in ["windows-1252", "Windows-1252", "cp1252", "latin-1", "latin1", "ISO-8859-1"] {
            #expect(TextEncoding(name: name) == .windows1252, "\(name)")
        }
        #expect(TextEncoding(name: "utf-16") == .utf16LittleEndian)
        #expect(TextEncoding(name: "UTF-16LE") == .utf16LittleEndian)
        #expect(TextEncoding(name: "utf-16be") == .utf16BigEndian)
        #expect(TextEncoding(name: "utf-32") == nil)
        #expect(TextEncoding(name: "macroman") == nil)
        #expect(TextEncoding(name: "") == nil)
    }

    @Test func onlyAGuessedWindows1252HasANote() {
        #expect(
            TextEncoding.windows1252.note
                == "read as Windows-1252 because it is not UTF-8; save it as \"CSV UTF-8\" to be sure")
        #expect(TextEncoding.utf8.note == nil)
        #expect(TextEncoding.utf16LittleEndian.note == nil)
        #expect(TextEncoding.utf16BigEndian.note == nil)
    }
}
