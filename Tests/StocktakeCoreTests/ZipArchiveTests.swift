import CZlib
import Foundation
import Testing

@testable import StocktakeCore

@Suite("ZipArchive")
struct ZipArchiveTests {
    /// An archive with a stored and a deflated entry, made by python's zipfile.
    static let basicScript = """
        import zipfile
        with zipfile.ZipFile('out.zip', 'w') as z:
            z.writestr('stored.txt', 'hello, stored', compress_type=zipfile.ZIP_STORED)
            z.writestr('xl/worksheets/sheet1.xml', '<row>' * 5000, compress_type=zipfile.ZIP_DEFLATED)
            z.writestr('xl/empty.xml', '', compress_type=zipfile.ZIP_DEFLATED)
        """

    @Test("stored and deflated entries are listed in central-directory order and read back exactly")
    func storedAndDeflated() throws {
        let folder = TemporaryFolder()
        let archive = try ZipArchive(bytes: try pythonZip(Self.basicScript, in: folder), name: "assets.xlsx")
        #expect(archive.name == "assets.xlsx")
        #expect(archive.entries.map(\.name) == ["stored.txt", "xl/worksheets/sheet1.xml", "xl/empty.xml"])
        #expect(archive.entries.map(\.method) == [0, 8, 8])
        let sheet = try #require(archive.entry(named: "xl/worksheets/sheet1.xml"))
        #expect(sheet.uncompressedSize == 25_000)
        #expect(sheet.compressedSize < 1000)
        #expect(try archive.contents(of: sheet) == Array(String(repeating: "<row>", count: 5000).utf8))
        let stored = try #require(archive.entry(named: "stored.txt"))
        #expect(try archive.contents(of: stored) == Array("hello, stored".utf8))
        let empty = try #require(archive.entry(named: "xl/empty.xml"))
        #expect(try archive.contents(of: empty) == [])
    }

    @Test("an entry is found by its exact name, then ASCII-case-insensitively, with a leading / ignored")
    func entryLookup() throws {
        let folder = TemporaryFolder()
        let bytes = try pythonZip(
            """
            import zipfile
            with zipfile.ZipFile('out.zip', 'w') as z:
                z.writestr('xl/Workbook.xml', 'upper')
                z.writestr('xl/workbook.xml', 'lower')
                z.writestr('[Content_Types].xml', 'types')
                z.writestr('xl\\\\styles.xml', 'backslash')
            """, in: folder)
        let archive = try ZipArchive(bytes: bytes, name: "assets.xlsx")
        func text(_ name: String) throws -> String? {
            guard let entry = archive.entry(named: name) else { return nil }
            return String(decoding: try archive.contents(of: entry), as: UTF8.self)
        }
        #expect(try text("xl/workbook.xml") == "lower")
        #expect(try text("xl/Workbook.xml") == "upper")
        #expect(try text("/xl/workbook.xml") == "lower")
        #expect(try text("XL/WORKBOOK.XML") == "upper")
        #expect(try text("/[content_types].xml") == "types")
        #expect(try text("xl/styles.xml") == "backslash")
        #expect(try text("xl/sharedStrings.xml") == nil)
        #expect(try text("//xl/workbook.xml") == nil)
    }

    @Test("storedRecord is the local header, the data and the data descriptor, byte for byte")
    func storedRecord() throws {
        let folder = TemporaryFolder()
        let bytes = try pythonZip(Self.basicScript, in: folder)
        let archive = try ZipArchive(bytes: bytes, name: "assets.xlsx")
        let centralStart = try #require(bytes.offset(of: ZipSignature.central))
        var previousEnd = 0
        for entry in archive.entries {
            let record = archive.storedRecord(of: entry)
            #expect(record.startIndex == entry.localHeaderOffset)
            #expect(record.startIndex == previousEnd)
            #expect(Array(record.prefix(4)) == ZipSignature.local)
            #expect(record.endIndex == entry.dataOffset + entry.compressedSize)
            previousEnd = record.endIndex
        }
        #expect(previousEnd == centralStart)
    }
}
