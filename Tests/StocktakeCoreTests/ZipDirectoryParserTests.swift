import Testing

@testable import StocktakeCore

@Suite("ZipDirectoryParser")
struct ZipDirectoryParserTests {
    @Test("names: UTF-8 when flagged or valid, otherwise code page 437 byte by byte")
    func names() {
        #expect(ZipDirectoryParser.decodeName(Array("xl/workbook.xml".utf8), utf8: false) == "xl/workbook.xml")
        #expect(ZipDirectoryParser.decodeName([0xC3, 0xA9], utf8: true) == "é")
        #expect(ZipDirectoryParser.decodeName([0xC3, 0xA9], utf8: false) == "é")
        #expect(ZipDirectoryParser.decodeName([0x80, 0x9F, 0xB0, 0xE1, 0xFF], utf8: false) == "Çƒ░ß\u{00A0}")
        #expect(ZipDirectoryParser.decodeName([0x81], utf8: false) == "ü")
    }

    @Test("the end record whose comment reaches the end of the file wins over a signature inside the comment")
    func endRecordInComment() throws {
        // A comment that is itself an end record with a comment length reaching past the file's end.
        let fake = TestZip.le32(0x0605_4b50) + [UInt8](repeating: 0, count: 16) + TestZip.le16(500)
        let bytes = TestZip.build([TestZipEntry("a.txt", "alpha")], comment: fake)
        let archive = try ZipArchive(bytes: bytes, name: "c.xlsx")
        #expect(archive.entries.map(\.name) == ["a.txt"])
        // Garbage after the comment: the record that fits is still found.
        let trailing = try ZipArchive(
            bytes: TestZip.build([TestZipEntry("b.txt", "beta")]) + [0, 0, 0], name: "t.xlsx")
        #expect(trailing.entries.map(\.name) == ["b.txt"])
    }
}
