import Foundation
import Testing

@testable import StocktakeSync

@Suite("Whitespace: trimming a configured location")
struct WhitespaceTests {
    /// The same as Foundation's trimming of `.whitespaces`, which the locations were trimmed with before.
    @Test(arguments: [
        "", " ", "\t \t", "central.csv", "  central.csv\t", "\u{A0}central.csv\u{3000}", "\u{2009} a b \u{202F}",
        "\nline break kept\n", " \r\n ", "é ", " Zoë ✓ ", "\u{200B}zero width counts\u{200B}", "\u{FEFF}bom\u{FEFF}",
    ])
    func trimsAsFoundationTrimsSpaces(text: String) {
        #expect(Whitespace.trimmed(text) == text.trimmingCharacters(in: .whitespaces))
        #expect(Array(Whitespace.trimmed(text).utf8) == Array(text.trimmingCharacters(in: .whitespaces).utf8))
    }

    /// Every Unicode scalar is a space here exactly when it is one in Foundation's set.
    @Test func theSpacesAreFoundationsSpaces() {
        var differing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if Whitespace.isSpace(scalar) != CharacterSet.whitespaces.contains(scalar) { differing.append(value) }
        }
        #expect(differing == [])
    }

    @Test func aLocationIsTrimmedBeforeItIsRead() throws {
        #expect(try SheetLocation("\u{A0} /srv/central.csv \t", provider: "file") == .file(path: "/srv/central.csv"))
        #expect(try EndpointURL(" \u{3000}files.example.org/a.csv ").description == "https://files.example.org/a.csv")
    }
}
