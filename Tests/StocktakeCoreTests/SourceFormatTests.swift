import Foundation
import StocktakeCore
import Testing

struct SourceFormatTests {
    static let compoundSignature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    @Test(arguments: [
        ([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00], SourceFormat.workbook),
        ([0x50, 0x4B, 0x05, 0x06, 0x00, 0x00, 0x00, 0x00], .workbook),  // an empty ZIP file: its end record
        ([0x50, 0x4B, 0x03, 0x04], .workbook),
        (compoundSignature, .compoundDocument),
        (compoundSignature + [0x00, 0x00], .compoundDocument),
        (Array(compoundSignature.prefix(7)), .text),  // cut short: not a compound document
        ([0x50, 0x4B, 0x07, 0x08, 0x00, 0x00, 0x00, 0x00], .text),  // a spanned-archive marker, not a workbook
        ([0x50, 0x4B], .text),
        (Array("PK,Tag\r\n".utf8), .text),  // a CSV whose first column is called PK
        (Array("VT Tag,S".utf8), .text),
        ([0xEF, 0xBB, 0xBF, 0x56, 0x54], .text),
        ([0xFF, 0xFE, 0x56, 0x00], .text),
        ([], .text),
    ])
    func tellsTheFormatFromTheFirstBytes(prefix: [UInt8], format: SourceFormat) {
        #expect(SourceFormat.of(prefix: prefix) == format)
        #expect(SourceFormat.of(prefix: prefix[...]) == format)
    }

    /// The name says nothing: a workbook saved as `.csv` is a workbook, a CSV named `.xlsx` is text.
    @Test func tellsAFileByItsBytesNotItsName() throws {
        let folder = TemporaryFolder()
        let parts = ReconcileJobTests.workbookParts([("Sheet1", false, ReconcileJobTests.inlineRow(1, ["Tag"]))])
        let workbook = try pythonZip(WorkbookTests.workbookScript(parts), in: folder)
        #expect(SourceFormat.of(path: folder.write(workbook, to: "scans.xlsx")) == .workbook)
        #expect(SourceFormat.of(path: folder.write(workbook, to: "scans.csv")) == .workbook)
        #expect(SourceFormat.of(path: folder.write("Tag\n1\n", to: "named.xlsx")) == .text)
        #expect(
            SourceFormat.of(path: folder.write(Self.compoundSignature + [0, 0, 0], to: "old.xls")) == .compoundDocument)
        #expect(SourceFormat.of(path: folder.write(Self.compoundSignature, to: "locked.xlsx")) == .compoundDocument)
        #expect(SourceFormat.of(path: folder.write([0x50, 0x4B, 0x03], to: "short.xlsx")) == .text)
        #expect(SourceFormat.of(path: folder.write([], to: "empty.xlsx")) == .text)
    }

    /// A file that cannot be read is `.text`, so that reading it as text says what is wrong.
    @Test func anUnreadablePathIsText() {
        let folder = TemporaryFolder()
        #expect(SourceFormat.of(path: folder.path("missing.xlsx")) == .text)
        #expect(SourceFormat.of(path: folder.path) == .text)
    }
}
