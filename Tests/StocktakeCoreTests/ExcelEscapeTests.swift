import Testing

@testable import StocktakeCore

struct ExcelEscapeTests {
    static func decoded(_ text: String, from start: Int = 0) -> String {
        var bytes = Array(text.utf8)
        ExcelEscape.decode(&bytes, from: start)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func decodesCodeUnitsAndSurrogatePairs() {
        #expect(Self.decoded("line_x000D__x000A_next") == "line\r\nnext")
        #expect(Self.decoded("_x00e9_t_x00C9_") == "étÉ")
        #expect(Self.decoded("_xD83D__xDE00_") == "😀")
        #expect(Self.decoded("_x005F_x0041_") == "_x0041_")
    }

    @Test func keepsWhatIsNoEscape() {
        #expect(Self.decoded("_x00G1_ _x12_ snake_case _xD83D_") == "_x00G1_ _x12_ snake_case _xD83D_")
        #expect(Self.decoded("_x0041_", from: 1) == "_x0041_")
    }
}
