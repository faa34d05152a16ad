import Testing

@testable import StocktakeCore

@Suite("SheetIntegrity")
struct SheetIntegrityTests {
    static let header = "VT Tag,Serial,MAC,Model,Building,Room,Custodian,Last seen,CNS,Notes,Status"

    /// A central sheet: the header (76 bytes with its CRLF), then 30 rows of 11 cells on lines 2 to 31, each 83 bytes
    /// with its CRLF.
    static let sheet: [UInt8] = Array(
        (header + "\r\n"
            + (10..<40).map { n in
                "1000\(n),S\(n),aa:bb:cc:dd:ee:\(n),AP-515,B01,R\(n),jdoe,2026-01-01,C0000\(n),\"note, \(n)\",ok\r\n"
            }.joined()).utf8)

    @Test func aWholeSheetIsComplete() {
        let integrity = SheetIntegrity.check(Self.sheet, fileName: "central.csv")
        #expect(integrity == SheetIntegrity(fileName: "central.csv", dataRows: 30, problem: nil))
        #expect(integrity.isComplete)
        #expect(integrity.description == "central.csv: 30 data rows, complete.")
    }

    @Test func aBodyCutAt60PercentInsideARow() {
        let cut = Array(Self.sheet.prefix(Self.sheet.count * 6 / 10))
        #expect(cut.count == 1539)
        #expect(String(decoding: cut.suffix(9), as: UTF8.self) == ",jdoe,202")
        let integrity = SheetIntegrity.check(cut, fileName: "central.csv")
        #expect(integrity.dataRows == 18)
        #expect(integrity.problem == .shortLastRow(line: 19, cells: 8, headerCells: 11))
        #expect(!integrity.isComplete)
        #expect(
            integrity.description
                == "central.csv: the last row (line 19) has 8 of 11 cells: the transfer was cut off. "
                + "Pull the sheet again, and if that row is short in the sheet itself, complete it there.")
    }

    @Test func aBodyCutInsideAQuotedField() {
        let cut = Array(Self.sheet.prefix(76 + 17 * 83 + 73))
        #expect(String(decoding: cut.suffix(6), as: UTF8.self) == ",\"note")
        let integrity = SheetIntegrity.check(cut, fileName: "central.csv")
        #expect(integrity.dataRows == 17)
        #expect(integrity.problem == .openQuote(line: 19))
        #expect(
            integrity.description
                == "central.csv: a quoted field opened on line 19 is still open at the end: the transfer was cut off. "
                + "Pull the sheet again, and if that line of the sheet itself has a stray \", remove it.")
    }

    @Test func aBodyCutExactlyAtARowEndIsComplete() {
        let rowEnd = 76 + 18 * 83
        #expect(Self.sheet[rowEnd - 2..<rowEnd] == [0x0D, 0x0A])
        let whole = SheetIntegrity.check(Array(Self.sheet.prefix(rowEnd)), fileName: "central.csv")
        #expect(whole == SheetIntegrity(fileName: "central.csv", dataRows: 18, problem: nil))
        // Between the CR and the LF the row has ended too.
        let betweenCRAndLF = SheetIntegrity.check(Array(Self.sheet.prefix(rowEnd - 1)), fileName: "central.csv")
        #expect(betweenCRAndLF == SheetIntegrity(fileName: "central.csv", dataRows: 18, problem: nil))
    }

    @Test func everyCutAfterTheHeaderIsSeenUnlessTheLastRowHasAllItsCells() {
        // A cut inside the last cell ("ok") leaves a row with all 11 cells: that, and only that, goes unseen.
        var unseen = 0
        for length in 76...Self.sheet.count {
            let cut = Array(Self.sheet.prefix(length))
            let integrity = SheetIntegrity.check(cut, fileName: "central.csv")
            let lastLine = cut.split(separator: 0x0A, omittingEmptySubsequences: false).last ?? []
            var cells = 1
            var quoted = false
            for byte in lastLine {
                if byte == 0x22 { quoted.toggle() }
                if byte == 0x2C && !quoted { cells += 1 }
            }
            if lastLine.isEmpty || lastLine.last == 0x0D {
                #expect(integrity.isComplete, "a cut at \(length) ends a row")
            } else if quoted {
                #expect(integrity.problem == .openQuote(line: 2 + (length - 76) / 83), "cut at \(length)")
            } else if cells < 11 {
                #expect(
                    integrity.problem == .shortLastRow(line: 2 + (length - 76) / 83, cells: cells, headerCells: 11),
                    "cut at \(length)")
            } else {
                #expect(integrity.isComplete, "a cut at \(length) is inside the last cell")
                unseen += 1
            }
        }
        #expect(unseen == 30 * 3, "\",\", \",o\" and \",ok\" of each row")
    }

    @Test func aLineLikeSpreadsheetsNumberIt() {
        let rows = (1...1801).map { "\($0),S\($0),m,AP,B,R,c,d,C,n,ok\n" }.joined()
        let text = Array((Self.header + "\n" + rows + "1802,S1802,m").utf8)
        let integrity = SheetIntegrity.check(text, fileName: "central.csv")
        #expect(integrity.dataRows == 1802)
        #expect(integrity.problem == .shortLastRow(line: 1803, cells: 3, headerCells: 11))
        #expect(
            integrity.description
                == "central.csv: the last row (line 1,803) has 3 of 11 cells: the transfer was cut off. "
                + "Pull the sheet again, and if that row is short in the sheet itself, complete it there.")
    }

    @Test func crlfByteOrderMarkAndTrailingBlankLines() {
        let text =
            [0xEF, 0xBB, 0xBF] + Array("\r\n,,\r\nTag,Serial,Model\r\n1,S1,AP\r\n\r\n2,S2,AP\r\n,,\r\n\r\n\r\n".utf8)
        #expect(
            SheetIntegrity.check(text, fileName: "scan.csv")
                == SheetIntegrity(fileName: "scan.csv", dataRows: 2, problem: nil))
        let cut = [0xEF, 0xBB, 0xBF] + Array("Tag,Serial,Model\r\n1,S1,AP\r\n2,S2".utf8)
        #expect(
            SheetIntegrity.check(cut, fileName: "scan.csv")
                == SheetIntegrity(
                    fileName: "scan.csv", dataRows: 2, problem: .shortLastRow(line: 3, cells: 2, headerCells: 3)))
    }

    @Test func aShortLastRowEndedByALineBreakArrivedWhole() {
        // Google Sheets leaves a row's trailing empty cells out; the row still ends with its line break.
        let text = Array("Tag,Serial,Model\r\n1,S1,AP\r\n2,S2\r\n".utf8)
        #expect(
            SheetIntegrity.check(text, fileName: "sheet.csv")
                == SheetIntegrity(fileName: "sheet.csv", dataRows: 2, problem: nil))
        // A row of empty cells after it shows it ended too.
        #expect(SheetIntegrity.check(Array("Tag,Serial,Model\n1,S1,AP\n2,S2\n,,".utf8), fileName: "s.csv").isComplete)
    }

    @Test func trailingEmptyHeaderCellsDoNotCount() {
        let text = Array("Tag,Serial,,\n1,S1,,\n2,S2".utf8)
        #expect(
            SheetIntegrity.check(text, fileName: "scan.csv")
                == SheetIntegrity(fileName: "scan.csv", dataRows: 2, problem: nil))
        #expect(
            SheetIntegrity.check(Array("Tag,Serial,,\n1,S1,,\n2".utf8), fileName: "scan.csv").problem
                == .shortLastRow(line: 3, cells: 1, headerCells: 2))
    }

    @Test func theDelimiterIsChosenAsTheReaderChoosesIt() {
        let tabs = Array("Tag\tSerial\tModel\n1\tS1\tAP\n2\tS2".utf8)
        #expect(
            SheetIntegrity.check(tabs, fileName: "scan.tsv").problem
                == .shortLastRow(line: 3, cells: 2, headerCells: 3))
        #expect(
            SheetIntegrity.check(tabs, fileName: "scan.txt").problem
                == .shortLastRow(line: 3, cells: 2, headerCells: 3), "sniffed from the first line")
        let semicolons = Array("Tag;Serial;Model\n1;S1;AP\n2;S2;AP".utf8)
        #expect(SheetIntegrity.check(semicolons, fileName: "scan.csv").isComplete)
        #expect(
            SheetIntegrity.check(semicolons, fileName: "scan.csv", delimiter: .comma).isComplete,
            "with commas every row has one cell")
    }

    @Test func aHeaderOnlyOrEmptySheetHasNoDataRows() {
        #expect(
            SheetIntegrity.check([], fileName: "empty.csv")
                == SheetIntegrity(fileName: "empty.csv", dataRows: 0, problem: nil))
        #expect(
            SheetIntegrity.check(Array("Tag,Serial".utf8), fileName: "head.csv")
                == SheetIntegrity(fileName: "head.csv", dataRows: 0, problem: nil))
    }

    @Test func utf16IsNamed() {
        let integrity = SheetIntegrity.check(utf16Bytes("Tag,Serial\n1,S1\n"), fileName: "unicode.csv")
        #expect(integrity.problem == .unsupportedEncoding("UTF-16 LE without a byte-order mark"))
        #expect(integrity.dataRows == 0)
        #expect(
            integrity.description
                == "unicode.csv: the file is encoded as UTF-16 LE without a byte-order mark, which cannot be read. "
                + "Open it in a spreadsheet and save it as \"CSV UTF-8\".")
    }

    /// A pulled HTML page or binary file is not a cut transfer: it is unreadable, with the reader's sentence (this
    /// used to stop the process on a precondition).
    @Test func anHTMLPageOrABinaryFileIsUnreadableNotCutOff() {
        let page = SheetIntegrity.check(Array("<!DOCTYPE html>\n<html>Sign in</html>\n".utf8), fileName: "central.csv")
        #expect(
            page
                == SheetIntegrity(
                    fileName: "central.csv", dataRows: 0,
                    problem: .unreadable(
                        reason: "the file is a web page (HTML), not a spreadsheet, so it is not read; it may be a "
                            + "sign-in or error page saved in the sheet's place. Download the sheet again as "
                            + "\"CSV UTF-8\" or .xlsx.")))
        let binary = SheetIntegrity.check(Array("Tag,Serial\n1,S1\n2,S\u{0}\n".utf8), fileName: "central.csv")
        #expect(binary.dataRows == 1)
        #expect(
            binary.description
                == "central.csv: line 3 holds a NUL byte, so the file is binary, not a sheet saved as text, and it is "
                + "not read. Check that it is the spreadsheet you meant and save it as \"CSV UTF-8\".")
    }

    @Test func aQuotedLineBreakInTheLastRowIsNotAnEnd() {
        let text = Array("Tag,Notes,Model\n1,\"two\nlines\",AP\n2,\"one\nmore\"".utf8)
        #expect(
            SheetIntegrity.check(text, fileName: "scan.csv").problem
                == .shortLastRow(line: 4, cells: 2, headerCells: 3))
    }
}

/// Pulled `.xlsx` central sheets: their rows are counted in the sheet the account reads, and a workbook that ends
/// before its ZIP directory is a transfer that was cut off.
@Suite("SheetIntegrity of workbooks")
struct WorkbookSheetIntegrityTests {
    let folder = TemporaryFolder()

    /// A workbook whose first visible sheet "Assets" has a header and 3 data rows (one blank row between), and
    /// whose second sheet "Old" has a header and 1 data row.
    func workbookBytes() throws -> [UInt8] {
        func row(_ number: Int, _ cells: [String]) -> String {
            "<row r=\"\(number)\">" + cells.map { "<c t=\"inlineStr\"><is><t>\($0)</t></is></c>" }.joined() + "</row>"
        }
        let parts: [(String, String)] = [
            ("_rels/.rels", WorkbookTests.rootRelationships),
            (
                "xl/workbook.xml",
                """
                <workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
                xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>\
                <sheet name="Assets" sheetId="1" r:id="rId1"/><sheet name="Old" sheetId="2" r:id="rId2"/>\
                </sheets></workbook>
                """
            ),
            (
                "xl/_rels/workbook.xml.rels",
                WorkbookTests.relationships([
                    ("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId2", "worksheet", "worksheets/sheet2.xml"),
                ])
            ),
            (
                "xl/worksheets/sheet1.xml",
                WorkbookTests.sheetXML(
                    row(1, ["VT Tag", "Room"]) + row(2, ["100001", "101"]) + row(4, ["100002", "102"])
                        + row(5, ["100003", ""]))
            ),
            ("xl/worksheets/sheet2.xml", WorkbookTests.sheetXML(row(1, ["VT Tag"]) + row(2, ["100009"]))),
        ]
        return try pythonZip(WorkbookTests.workbookScript(parts), in: folder)
    }

    @Test func aWholeWorkbookCountsTheDataRowsOfItsFirstVisibleSheetOrTheNamedOne() throws {
        let bytes = try workbookBytes()
        #expect(
            SheetIntegrity.check(bytes, fileName: "central.xlsx")
                == SheetIntegrity(fileName: "central.xlsx", dataRows: 3, problem: nil))
        #expect(SheetIntegrity.check(bytes, fileName: "central.xlsx", sheet: "Old").dataRows == 1)
    }

    @Test func aWorkbookCutAnywhereBeforeItsDirectoryIsACutOffTransfer() throws {
        let bytes = try workbookBytes()
        for fraction in [10, 50, 90, 99] {
            let cut = Array(bytes.prefix(bytes.count * fraction / 100))
            let integrity = SheetIntegrity.check(cut, fileName: "central.xlsx")
            #expect(integrity.problem == .cutOffWorkbook, "cut at \(fraction) %")
            #expect(
                integrity.description
                    == "central.xlsx: the workbook ends before its ZIP directory: the transfer was cut off. Pull the "
                    + "sheet again, and if the file itself is damaged, save the workbook again in Excel.")
        }
    }

    /// Damaged, not cut off: not pulled again, and not held against the evidence guards (its row count says
    /// nothing); the read that follows refuses it with the same sentence.
    @Test func aDamagedWorkbookIsUnreadableInTheReadersWords() throws {
        var bytes = try workbookBytes()
        // The end record's signature gone: a damaged directory, not a cut-off one.
        let end = bytes.count - 22
        #expect(Array(bytes[end..<end + 4]) == [0x50, 0x4B, 0x05, 0x06])
        bytes[end + 10] = 0xFF
        let integrity = SheetIntegrity.check(bytes, fileName: "central.xlsx")
        #expect(
            integrity.problem
                == .unreadable(
                    reason: "central.xlsx: the workbook's ZIP directory is damaged; it was not read. Copy the file "
                        + "again from where it came from, or open it in a spreadsheet and save it again."))
    }
}
