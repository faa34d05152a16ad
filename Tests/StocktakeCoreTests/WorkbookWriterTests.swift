import Foundation
import Testing

@testable import StocktakeCore

@Suite("WorkbookWriter: one-sheet .xlsx workbooks")
struct WorkbookWriterTests {
    let folder = TemporaryFolder()

    static let columns = [
        WorkbookWriter.Column("tag", .identifier), WorkbookWriter.Column("note", .text),
        WorkbookWriter.Column("latitude", .number), WorkbookWriter.Column("seen", .date),
    ]

    /// Row `index`: tag 72 + index as 6 digits, a note, a coordinate and a day, each left empty now and then.
    static func row(_ index: Int, _ cells: inout WorksheetRow) {
        cells.plainText { CanonicalText.append(UInt64(72 + index), digits: 6, to: &$0) }
        if index % 3 == 2 { cells.skip() } else { cells.text(index == 0 ? "=cmd" : "note \(index)") }
        cells.number(index % 4 == 3 ? nil : 37.25 + Double(index))
        cells.date(index % 5 == 4 ? nil : InventoryDate(year: 2026, month: 3, day: 5)!.adding(days: index))
    }

    /// The text of the part `name` of the workbook `bytes`, as python's zipfile reads it.
    func part(_ name: String, of bytes: [UInt8]) -> String {
        let path = folder.write(bytes, to: "part.xlsx")
        return WorkbookTools.python(
            "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())",
            [path, name]
        ).output
    }

    @Test func textIsEscapedForXMLAndCharactersXMLCannotHoldBecomeEscapes() {
        func escaped(_ text: String) -> String {
            var text = text
            var output: [UInt8] = []
            text.withUTF8 { WorksheetRow.appendEscaped($0, to: &output) }
            return String(decoding: output, as: UTF8.self)
        }
        #expect(escaped("plain text, 'quoted' \"too\" é") == "plain text, 'quoted' \"too\" é")
        #expect(escaped("a & b < c > d") == "a &amp; b &lt; c &gt; d")
        #expect(escaped("tab\there\nline\r\nend") == "tab\there\nline&#13;\nend")
        #expect(escaped("nul\u{0}bell\u{7}esc\u{1B}") == "nul_x0000_bell_x0007_esc_x001B_")
        #expect(escaped("\u{FFFE}\u{FFFF}\u{FFFD}") == "_xFFFE__xFFFF_\u{FFFD}")
        // A literal escape keeps its meaning: its underscore is escaped; an underscore alone is not.
        #expect(escaped("_x0041_ and _xabcd_") == "_x005F_x0041_ and _x005F_xabcd_")
        #expect(escaped("_x004_ _x00G1_ a_b _") == "_x004_ _x00G1_ a_b _")
    }

    @Test func datesAreSerialNumbersOfThe1900DateSystem() {
        func serial(_ year: Int, _ month: Int, _ day: Int) -> Int? {
            WorksheetRow.serial(of: InventoryDate(year: year, month: month, day: day)!)
        }
        #expect(serial(1900, 1, 1) == 1)
        #expect(serial(1900, 2, 28) == 59)
        // Excel's 1900-02-29, which never was, is 60.
        #expect(serial(1900, 3, 1) == 61)
        #expect(serial(1970, 1, 1) == 25_569)
        #expect(serial(2026, 3, 5) == 46_086)
        #expect(serial(9999, 12, 31) == 2_958_465)
        #expect(serial(1899, 12, 31) == nil)
    }

    @Test func columnsAreNamedByLetters() {
        let names = [0, 25, 26, 51, 701, 702, 16_383].map {
            String(decoding: WorkbookWriter.columnLetters($0), as: UTF8.self)
        }
        #expect(names == ["A", "Z", "AA", "AZ", "ZZ", "AAA", "XFD"])
    }

    @Test(.enabled(if: WorkbookTools.hasPython, "python3 is not installed"))
    func theSheetHasAFrozenFilteredHeaderWidthsAndTypedCells() {
        let bytes = WorkbookWriter.bytes(sheet: "t", columns: Self.columns, rowCount: 5, row: Self.row)
        let sheet = part("xl/worksheets/sheet1.xml", of: bytes)
        #expect(sheet.contains("<dimension ref=\"A1:D6\"/>"))
        #expect(
            sheet.contains(
                "<sheetView tabSelected=\"1\" workbookViewId=\"0\"><pane ySplit=\"1\" topLeftCell=\"A2\" "
                    + "activePane=\"bottomLeft\" state=\"frozen\"/>"))
        #expect(sheet.contains("</sheetData><autoFilter ref=\"A1:D6\"/>"))
        // Widths: the header with room for its filter button, or the widest value, plus one.
        #expect(
            sheet.contains(
                "<cols><col min=\"1\" max=\"1\" width=\"7\" customWidth=\"1\"/><col min=\"2\" max=\"2\" width=\"8\" "
                    + "customWidth=\"1\"/><col min=\"3\" max=\"3\" width=\"12\" customWidth=\"1\"/>"
                    + "<col min=\"4\" max=\"4\" width=\"11\" customWidth=\"1\"/></cols>"))
        #expect(
            sheet.contains(
                "<row r=\"1\"><c s=\"1\" t=\"inlineStr\"><is><t>tag</t></is></c>"
                    + "<c s=\"1\" t=\"inlineStr\"><is><t>note</t></is></c>"))
        #expect(
            sheet.contains(
                "<row r=\"2\"><c s=\"3\" t=\"inlineStr\"><is><t>000072</t></is></c>"
                    + "<c t=\"inlineStr\"><is><t>=cmd</t></is></c><c><v>37.25</v></c>"
                    + "<c s=\"2\"><v>46086</v></c></row>"))
        // Empty cells are left out; a cell after one names its column, the others follow the cell before them.
        #expect(
            sheet.contains(
                "<row r=\"4\"><c s=\"3\" t=\"inlineStr\"><is><t>000074</t></is></c>"
                    + "<c r=\"C4\"><v>39.25</v></c><c s=\"2\"><v>46088</v></c></row>"))
        // A row whose last cells are empty ends after the last cell it has.
        #expect(
            sheet.contains(
                "<row r=\"6\"><c s=\"3\" t=\"inlineStr\"><is><t>000076</t></is></c>"
                    + "<c t=\"inlineStr\"><is><t>note 4</t></is></c><c><v>41.25</v></c></row>"))
        #expect(
            part("xl/styles.xml", of: bytes).contains("<numFmt numFmtId=\"164\" formatCode=\"yyyy-mm-dd\"/>"))
        #expect(
            part("xl/workbook.xml", of: bytes).contains(
                "<sheets><sheet name=\"t\" sheetId=\"1\" r:id=\"rId1\"/></sheets><definedNames><definedName "
                    + "name=\"_xlnm._FilterDatabase\" localSheetId=\"0\" hidden=\"1\">'t'!$A$1:$D$6</definedName>"))
    }

    /// Rows with empty cells at the start, in the middle and at the end, a number cell retracted because it wrote
    /// nothing, and shared strings (one of them in an identifier column, styled as text).
    static func gappedRow(_ index: Int, _ cells: inout WorksheetRow) {
        if index % 2 == 0 {
            cells.skip()
        } else {
            cells.plainText { CanonicalText.append(UInt64(index), digits: 4, to: &$0) }
        }
        cells.plainText { _ in }
        cells.shared(index % 3 == 0 ? -1 : Int32(index % 2))
        cells.text(index == 1 ? nil : " note \(index)")
        cells.shared(Int32(2))
    }

    static let gappedColumns = [
        WorkbookWriter.Column("tag", .identifier), WorkbookWriter.Column("nothing", .identifier),
        WorkbookWriter.Column("model", .text), WorkbookWriter.Column("note", .text),
        WorkbookWriter.Column("stock", .identifier),
    ]

    static var gappedStrings: SharedStringTable {
        var table = SharedStringTable()
        for text in ["AP-515 access point", "a & b", "S-1"] { _ = table.index(of: text) }
        table.references = 10
        return table
    }

    @Test(.enabled(if: WorkbookTools.hasPython, "python3 is not installed"))
    func onlyACellAfterAnEmptyOneNamesItsColumnAndSharedStringsArePartsOfTheirOwn() {
        let bytes = WorkbookWriter.bytes(
            sheet: "t", columns: Self.gappedColumns, rowCount: 4, sharedStrings: Self.gappedStrings,
            row: Self.gappedRow)
        let sheet = part("xl/worksheets/sheet1.xml", of: bytes)
        let rows: String =
            "<row r=\"2\"><c r=\"D2\" t=\"inlineStr\"><is><t xml:space=\"preserve\"> note 0</t></is></c>"
            + "<c s=\"3\" t=\"s\"><v>2</v></c></row>"
            + "<row r=\"3\"><c s=\"3\" t=\"inlineStr\"><is><t>0001</t></is></c>"
            + "<c r=\"C3\" t=\"s\"><v>1</v></c><c r=\"E3\" s=\"3\" t=\"s\"><v>2</v></c></row>"
            + "<row r=\"4\"><c r=\"C4\" t=\"s\"><v>0</v></c>"
        #expect(sheet.contains(rows))
        let strings: String =
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<sst xmlns=\"http://schemas."
            + "openxmlformats.org/spreadsheetml/2006/main\" count=\"10\" uniqueCount=\"3\"><si><t>AP-515 access point</t></si>"
            + "<si><t>a &amp; b</t></si><si><t>S-1</t></si></sst>"
        #expect(part("xl/sharedStrings.xml", of: bytes) == strings)
        #expect(part("[Content_Types].xml", of: bytes).contains("<Override PartName=\"/xl/sharedStrings.xml\""))
        #expect(
            part("xl/_rels/workbook.xml.rels", of: bytes).contains(
                "<Relationship Id=\"rId3\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/"
                    + "relationships/sharedStrings\" Target=\"sharedStrings.xml\"/>"))
        // Without shared strings there is no such part.
        let plain = WorkbookWriter.bytes(sheet: "t", columns: Self.columns, rowCount: 2, row: Self.row)
        #expect(!part("[Content_Types].xml", of: plain).contains("sharedStrings"))
        #expect(!part("xl/_rels/workbook.xml.rels", of: plain).contains("sharedStrings"))
    }

    /// The rows `gappedRow` writes, as text.
    static let gappedTexts = [
        ["", "", "", " note 0", "S-1"], ["0001", "", "a & b", "", "S-1"],
        ["", "", "AP-515 access point", " note 2", "S-1"],
        ["0003", "", "", " note 3", "S-1"],
    ]

    @Test(.enabled(if: WorkbookTools.hasOpenpyxl, "python3-openpyxl is not installed"))
    func openpyxlPlacesCellsWithoutReferencesAndReadsSharedStrings() throws {
        let bytes = WorkbookWriter.bytes(
            sheet: "t", columns: Self.gappedColumns, rowCount: 4, sharedStrings: Self.gappedStrings,
            row: Self.gappedRow)
        let sheet = try #require(try WorkbookTools.openpyxl(folder.write(bytes, to: "gapped.xlsx")).first)
        #expect(sheet.rows == [Self.gappedColumns.map(\.name)] + Self.gappedTexts)
        // Shared strings are measured as their texts: the model column is as wide as its longest, plus one; the
        // stock column as its header with room for the filter button (5 + 3), plus one.
        #expect(sheet.widths["C"] == 20)
        #expect(sheet.widths["E"] == 9)
    }

    @Test func ourReaderPlacesCellsWithoutReferencesAndReadsSharedStrings() throws {
        let bytes = WorkbookWriter.bytes(
            sheet: "t", columns: Self.gappedColumns, rowCount: 4, sharedStrings: Self.gappedStrings,
            row: Self.gappedRow)
        let workbook = try Workbook(bytes: bytes, name: "gapped.xlsx")
        var rows: [[String]] = []
        var lines: [Int] = []
        try workbook.forEachRecord { record in
            rows.append((0..<record.count).map { record.string(at: $0) })
            lines.append(record.line)
        }
        #expect(rows == [Self.gappedColumns.map(\.name)] + Self.gappedTexts)
        #expect(lines == [1, 2, 3, 4, 5])
    }

    @Test func theSameTableMakesTheSameBytes() {
        let first = WorkbookWriter.bytes(sheet: "t", columns: Self.columns, rowCount: 20_000, row: Self.row)
        #expect(WorkbookWriter.bytes(sheet: "t", columns: Self.columns, rowCount: 20_000, row: Self.row) == first)
    }

    @Test(.enabled(if: WorkbookTools.hasOpenpyxl, "python3-openpyxl is not installed"))
    func openpyxlReadsTextsNumbersAndDatesBack() throws {
        let texts = [" leading", "trailing\t", "=cmd", "a & b <c>", "two\nlines", "cr\r\nlf", "_x0041_", "Zoë ✓"]
        let bytes = WorkbookWriter.bytes(sheet: "t", columns: Self.columns, rowCount: texts.count) { index, cells in
            cells.plainText { CanonicalText.append(UInt64(index), digits: 6, to: &$0) }
            cells.text(texts[index])
            cells.number(index == 0 ? -80.4139 : Double(index))
            cells.date(InventoryDate(year: 1900, month: 3, day: 1)!.adding(days: index))
        }
        let sheets = try WorkbookTools.openpyxl(folder.write(bytes, to: "t.xlsx"))
        #expect(sheets.count == 1)
        #expect(sheets.first?.freeze == "A2")
        #expect(sheets.first?.filter == "A1:D9")
        #expect(sheets.first?.bold == [true, true, true, true])
        #expect(sheets.first?.rows.first == ["tag", "note", "latitude", "seen"])
        #expect(sheets.first?.rows.dropFirst().map { $0[0] } == (0..<8).map { "00000\($0)" })
        // openpyxl 3.0 leaves `_xHHHH_` escapes in inline strings as they are (Excel and LibreOffice decode them).
        #expect(
            sheets.first?.rows.dropFirst().map { $0[1] }
                == texts.map { $0 == "_x0041_" ? "_x005F_x0041_" : $0 })
        #expect(sheets.first?.rows[1][2] == "number -80.4139")
        #expect(sheets.first?.rows[2][2] == "number 1")
        #expect(sheets.first?.rows[1][3] == "date 1900-03-01 yyyy-mm-dd")
        #expect(sheets.first?.rows[8][3] == "date 1900-03-08 yyyy-mm-dd")
    }

    @Test(.enabled(if: WorkbookTools.hasLibreOffice, "LibreOffice (soffice) is not installed"))
    func libreOfficeDecodesTheEscapesBackToTheText() throws {
        // A lone carriage return (LibreOffice makes a CR LF inside a cell one line feed; openpyxl keeps it, above).
        let texts = ["_x0041_", "bell\u{7}", "cr\rlf", "=cmd", "007"]
        let columns = [WorkbookWriter.Column("text", .text)]
        let bytes = WorkbookWriter.bytes(sheet: "t", columns: columns, rowCount: texts.count) { index, cells in
            cells.text(texts[index])
        }
        let csv = WorkbookTools.libreOfficeCSV(folder.write(bytes, to: "escapes.xlsx"), folder: folder.path)
        #expect(Array(csv.utf8) == Array("text\n_x0041_\nbell\u{7}\n\"cr\rlf\"\n=cmd\n007\n".utf8))
    }

    @Test(.enabled(if: WorkbookTools.hasOpenpyxl, "python3-openpyxl is not installed"))
    func rowsPastASheetContinueOnFurtherSheetsEachWithTheHeader() throws {
        let bytes = WorkbookWriter.bytes(
            sheet: "cleaned", columns: Self.columns, rowCount: 7, rowsPerSheet: 3, row: Self.row)
        let sheets = try WorkbookTools.openpyxl(folder.write(bytes, to: "long.xlsx"))
        #expect(sheets.map(\.title) == ["cleaned", "cleaned (2)", "cleaned (3)"])
        #expect(sheets.map(\.filter) == ["A1:D4", "A1:D4", "A1:D2"])
        #expect(sheets.map(\.freeze) == ["A2", "A2", "A2"])
        #expect(sheets.map { $0.rows.first ?? [] } == Array(repeating: ["tag", "note", "latitude", "seen"], count: 3))
        #expect(sheets.flatMap { $0.rows.dropFirst().map { $0[0] } } == (72..<79).map { "0000\($0)" })
    }

    /// The `<cols>` element of the first sheet of `bytes`, read with our own ZIP reader.
    static func columnWidths(of bytes: [UInt8]) throws -> String {
        let archive = try ZipArchive(bytes: bytes, name: "w.xlsx")
        let entry = try #require(archive.entry(named: "xl/worksheets/sheet1.xml"))
        let sheet = String(decoding: try archive.contents(of: entry), as: UTF8.self)
        let start = try #require(sheet.range(of: "<cols>"))
        let end = try #require(sheet.range(of: "</cols>"))
        return String(sheet[start.lowerBound..<end.upperBound])
    }

    @Test func columnsAreSizedByTheFirstThousandRowsOnlyWhetherTheFirstBlockHoldsThemOrNot() throws {
        // Row 999 (the thousandth) holds a note of 29 characters, row 1,000 one of 49: only the first counts.
        let columns = [WorkbookWriter.Column("note", .text)]
        let row: @Sendable (Int, inout WorksheetRow) -> Void = { index, cells in
            switch index {
            case 999: cells.text(String(repeating: "n", count: 29))
            case 1_000: cells.text(String(repeating: "w", count: 49))
            default: cells.text("x")
            }
        }
        let expected = "<cols><col min=\"1\" max=\"1\" width=\"30\" customWidth=\"1\"/></cols>"
        // Sized while the first block is made (it holds the thousand rows) …
        let sized = WorkbookWriter.bytes(sheet: "t", columns: columns, rowCount: 1_200, row: row)
        #expect(try Self.columnWidths(of: sized) == expected)
        // … and beforehand when a sheet, so a block, holds fewer rows.
        let split = WorkbookWriter.bytes(sheet: "t", columns: columns, rowCount: 1_200, rowsPerSheet: 600, row: row)
        #expect(try Self.columnWidths(of: split) == expected)
        // Fewer rows than a thousand are all measured; without rows, the header sizes the column (4 + 3, plus one).
        let short = WorkbookWriter.bytes(sheet: "t", columns: columns, rowCount: 1_000, row: row)
        #expect(try Self.columnWidths(of: short) == expected)
        let empty = WorkbookWriter.bytes(sheet: "t", columns: columns, rowCount: 0, row: row)
        #expect(
            try Self.columnWidths(of: empty) == "<cols><col min=\"1\" max=\"1\" width=\"8\" customWidth=\"1\"/></cols>")
    }

    @Test func aFileThatCannotBeWrittenIsReportedAndLeavesNothing() throws {
        let path = folder.path("missing/out.xlsx")
        #expect(throws: StocktakeError.cannotWrite(path: path, reason: "the folder does not exist")) {
            try WorkbookWriter.write(sheet: "t", columns: Self.columns, rowCount: 2, row: Self.row, to: path)
        }
        #expect(folder.list() == [])
    }
}
