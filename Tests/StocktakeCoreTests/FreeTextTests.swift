import Testing

@testable import StocktakeCore

struct FreeTextTests {
    @Test(arguments: [
        ("  AP-515  ", TextStyle.upperCased, "AP-515"),
        ("ap-515 rw", .upperCased, "AP-515 RW"),
        ("Ceiling  tile", .trimmed, "Ceiling  tile"),
        ("\tAccess point, 2nd floor\u{A0}", .trimmed, "Access point, 2nd floor"),
        (" 1st  floor\t\t east ", .upperCasedCollapsingSpaces, "1ST FLOOR EAST"),
        ("rm 2 b", .upperCasedCollapsingSpaces, "RM 2 B"),
        (" Wall ", .lowerCased, "wall"),
        ("CEILING", .lowerCased, "ceiling"),
        ("café münchen", .upperCased, "CAFé MüNCHEN"),
        ("ÉCOLE", .lowerCased, "École"),
        ("jdoe", .trimmed, "jdoe"),
    ])
    func appliesTheStyle(input: String, style: TextStyle, expected: String) {
        #expect(FreeText.normalize(input, style: style) == .value(expected))
    }

    @Test(arguments: ["", "   ", "N/A", "na", "None", "-", "TBD", "To Be Filled By O.E.M."])
    func placeholdersAreEmpty(input: String) {
        for style in [TextStyle.trimmed, .upperCased, .upperCasedCollapsingSpaces, .lowerCased] {
            #expect(FreeText.normalize(input, style: style) == .empty)
        }
    }

    @Test func normalizesRawBytes() {
        let bytes = Array(" room\t 101 ".utf8)
        let result = bytes.withUnsafeBufferPointer { FreeText.normalize($0, style: .upperCasedCollapsingSpaces) }
        #expect(result == .value("ROOM 101"))
    }

    /// The bytes handed on without a `String` (as they are when the style changes nothing, else mapped) are those
    /// of `normalize`, for random texts of letters in both cases, spaces, tabs and other bytes, in every style.
    /// Bytes that are not UTF-8 become U+FFFD in the text, in every style, as `String(decoding:as:)` makes them (the
    /// reader has already reported such a cell as damaged text).
    @Test func bytesThatAreNotUTF8AreRepairedInEveryStyle() {
        let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0xC3]
        for style in [TextStyle.trimmed, .upperCased, .upperCasedCollapsingSpaces, .lowerCased] {
            let result = bytes.withUnsafeBufferPointer { FreeText.normalize($0, style: style) }
            let expected = style == .trimmed || style == .lowerCased ? "a\u{FFFD}b\u{FFFD}" : "A\u{FFFD}B\u{FFFD}"
            #expect(result == .value(expected), "\(style)")
        }
    }

    @Test func normalizedBytesAreThoseOfNormalize() {
        let alphabet: [String] = ["a", "Z", "m", "Q", " ", " ", "\t", "-", "7", "\u{E9}", "/"]
        let styles: [TextStyle] = [.trimmed, .upperCased, .upperCasedCollapsingSpaces, .lowerCased]
        for text in randomTexts(4_000, of: alphabet, seed: 0xF00D) {
            for style in styles {
                let bytes = Array(text.utf8).withUnsafeBufferPointer { cell in
                    FreeText.withNormalizedBytes(cell, style: style) { String(decoding: $0, as: UTF8.self) }
                }
                #expect(bytes == FreeText.normalize(text, style: style).value, "\(text) \(style)")
            }
        }
    }
}
