import StocktakeCore
import Testing

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
}
