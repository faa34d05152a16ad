import Testing

@testable import StocktakeCore

@Suite("SharedStringTable: the shared strings of a workbook being written")
struct SharedStringTableTests {
    @Test func aTextKeepsTheIndexItWasFirstGiven() {
        var table = SharedStringTable()
        #expect(table.isEmpty)
        #expect(table.index(of: "BUR") == 0)
        #expect(table.index(of: "ceiling") == 1)
        #expect(table.index(of: "BUR") == 0)
        #expect(table.index(of: "bur") == 2)
        #expect(
            (0..<table.count).map { String(decoding: table.bytes(at: $0), as: UTF8.self) } == ["BUR", "ceiling", "bur"])
        #expect(!table.isEmpty)
    }

    /// A `String` comparison takes the two spellings of "é" (one code point, or "e" and a combining accent) as
    /// equal; the table keeps each cell's own bytes.
    @Test func textsAreToldApartByTheirBytes() {
        var table = SharedStringTable()
        let composed = "Caf\u{E9}"
        let decomposed = "Cafe\u{301}"
        #expect(composed == decomposed, "Swift compares them by canonical equivalence")
        #expect(table.index(of: composed) == 0)
        #expect(table.index(of: decomposed) == 1)
        #expect(table.index(of: composed) == 0)
        #expect((0..<table.count).map { Array(table.bytes(at: $0)) } == [Array(composed.utf8), Array(decomposed.utf8)])
        let many = (0..<5_000).map { "Room \($0)" }
        for (offset, text) in many.enumerated() { #expect(table.index(of: text) == Int32(offset + 2)) }
        for (offset, text) in many.enumerated().reversed() { #expect(table.index(of: text) == Int32(offset + 2)) }
    }

    @Test func widthsCountCharactersNotBytes() {
        var table = SharedStringTable()
        for text in ["Zoë ✓", "", "AP-515"] { _ = table.index(of: text) }
        #expect(table.widths == [5, 0, 6])
    }

    @Test func thePartEscapesTextsAndKeepsTheirSpaces() {
        var table = SharedStringTable()
        for text in ["a & <b>", " lead", "trail\t", "bell\u{7}", "_x0041_", "plain"] { _ = table.index(of: text) }
        table.references = 9
        let expected: String =
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
            + "<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" count=\"9\" "
            + "uniqueCount=\"6\"><si><t>a &amp; &lt;b&gt;</t></si><si><t xml:space=\"preserve\"> lead</t></si>"
            + "<si><t xml:space=\"preserve\">trail\t</t></si><si><t>bell_x0007_</t></si>"
            + "<si><t>_x005F_x0041_</t></si><si><t>plain</t></si></sst>"
        #expect(String(decoding: table.part(), as: UTF8.self) == expected)
    }

    @Test func ourReaderReadsThePartBackToTheTexts() throws {
        var table = SharedStringTable()
        let texts = ["a & <b>", " lead", "trail\t", "bell\u{7}", "_x0041_", "cr\r\nlf", "Zoë ✓"]
        for text in texts { _ = table.index(of: text) }
        let part = table.part()
        let strings = try part.withUnsafeBufferPointer { bytes throws(XMLError) in try SharedStrings(part: bytes) }
        #expect((0..<strings.count).map { strings.string(at: $0) ?? "missing" } == texts)
    }
}
