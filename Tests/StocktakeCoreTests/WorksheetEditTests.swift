import Testing

@testable import StocktakeCore

/// The edit of a worksheet part, on hand-written workbooks whose XML each test knows byte for byte.
struct WorksheetEditTests {
    static let namespace = "xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\""

    /// A worksheet of `rows` with a dimension.
    static func sheet(_ rows: String, dimension: String = "A1:C3") -> String {
        "<worksheet \(namespace)><dimension ref=\"\(dimension)\"/><sheetData>\(rows)</sheetData>"
            + "<pageMargins left=\"0.7\"/></worksheet>"
    }

    static let sharedStrings =
        "<si><t>VT Tag</t></si><si><t>Serial Number</t></si><si><t>Room</t></si>"
        + "<si><t>cnf123</t></si><si><t>CNF124</t></si><si><t>Custodian</t></si><si><t>jdoe</t></si>"

    /// Tag 4512 stored as a number with style 2, a lower-case serial from the shared strings, no room cell before
    /// its custodian; a second row whose room is an empty styled cell.
    static let rows =
        "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"B1\" t=\"s\"><v>1</v></c><c r=\"C1\" t=\"s\"><v>2</v></c>"
        + "<c r=\"D1\" t=\"s\"><v>5</v></c></row>"
        + "<row r=\"2\" spans=\"1:4\"><c r=\"A2\" s=\"2\"><v>4512</v></c><c r=\"B2\" s=\"5\" t=\"s\"><v>3</v></c>"
        + "<c r=\"D2\" t=\"s\"><v>6</v></c></row>"
        + "<row r=\"3\"><c r=\"A3\" t=\"inlineStr\"><is><t>004513</t></is></c><c r=\"C3\" s=\"4\"/></row>"

    private func fixture(_ sheet: String, survey: String) -> CentralWorkbookFixture {
        var fixture = CentralWorkbookFixture(
            workbook: CentralWorkbookFixture.handWritten(sheet: sheet, sharedStrings: Self.sharedStrings))
        fixture.sighting("survey.csv", survey)
        return fixture
    }

    @Test func changedCellsBecomeInlineStringsKeepingReferenceAndStyleAndMissingOnesAreInserted() throws {
        let fixture = fixture(
            Self.sheet(Self.rows, dimension: "A1:D3"),
            survey: "P-Tag,Serial,Room\n4512,CNF123,205\n4513,CNF124,B<1>&2\n")
        let plan = try fixture.plan()
        let edited = plan.editedSheet()
        #expect(
            try CentralWorkbookFixture.part("xl/worksheets/sheet1.xml", of: edited)
                == Self.sheet(
                    "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"B1\" t=\"s\"><v>1</v></c>"
                        + "<c r=\"C1\" t=\"s\"><v>2</v></c><c r=\"D1\" t=\"s\"><v>5</v></c></row>"
                        + "<row r=\"2\" spans=\"1:4\">"
                        + "<c r=\"A2\" s=\"2\" t=\"inlineStr\"><is><t xml:space=\"preserve\">004512</t></is></c>"
                        + "<c r=\"B2\" s=\"5\" t=\"inlineStr\"><is><t xml:space=\"preserve\">CNF123</t></is></c>"
                        + "<c r=\"C2\" t=\"inlineStr\"><is><t xml:space=\"preserve\">205</t></is></c>"
                        + "<c r=\"D2\" t=\"s\"><v>6</v></c></row>"
                        + "<row r=\"3\"><c r=\"A3\" t=\"inlineStr\"><is><t>004513</t></is></c>"
                        + "<c r=\"C3\" s=\"4\" t=\"inlineStr\"><is><t xml:space=\"preserve\">B&lt;1&gt;&amp;2</t></is></c>"
                        + "</row>", dimension: "A1:D3"))
        // The shared strings part is copied as it was: `cnf123` stays there, no longer used by B2.
        let pulled = try CentralWorkbookFixture.storedRecords(fixture.workbook)
        let pushed = try CentralWorkbookFixture.storedRecords(edited)
        #expect(
            pushed.first { $0.name == "xl/sharedStrings.xml" }?.record
                == pulled.first { $0.name == "xl/sharedStrings.xml" }?.record)
        #expect(try CentralWorkbookFixture.part("xl/sharedStrings.xml", of: edited).contains("<t>cnf123</t>"))
        #expect(try fixture.plan(central: edited).changes.isEmpty, "the next night changes nothing")
    }

    @Test func theRowsArePlannedAsTheReaderReadsThemWithFormulaAndRichTextCellsLeftAlone() throws {
        let sheet = Self.sheet(
            Self.rows
                + "<row r=\"5\"><c r=\"A5\"><f>4510+4</f><v>4514</v></c>"
                + "<c r=\"B5\" t=\"inlineStr\"><is><r><t>cnf</t></r><r><t>125</t></r></is></c>"
                + "<c r=\"C5\" t=\"str\"><f>\"1\"&amp;\"01\"</f><v>101</v></c></row>")
        let edit = try WorksheetEdit(
            bytes: CentralWorkbookFixture.handWritten(sheet: sheet, sharedStrings: Self.sharedStrings),
            fileName: "central.xlsx", sheet: nil)
        #expect(
            String(decoding: edit.text, as: UTF8.self)
                == "\"VT Tag\",\"Serial Number\",\"Room\",\"Custodian\"\n\"4512\",\"cnf123\",\"\",\"jdoe\"\n"
                + "\"004513\",\"\",\"\",\"\"\n\"4514\",\"cnf125\",\"101\",\"\"\n")
        #expect(edit.protectedCells == [3 << 32 | 0, 3 << 32 | 1, 3 << 32 | 2])
        #expect(edit.sheetName == "Assets")
        // The survey would normalize the serial and overwrite the room: the formula and rich-text cells stay.
        let fixture = fixture(sheet, survey: "P-Tag,Serial,Room\n4514,CNF125,205\n")
        let plan = try fixture.plan(WriteBackOptions(overwrite: true))
        #expect(plan.changes.map(\.row) == [1, 1], "only row 2's tag and serial, never row 5's cells")
    }

    @Test func appendedRowsFollowTheLastRowElementTakeThePrefixAndGrowTheDimension() throws {
        let sheet =
            "<x:worksheet xmlns:x=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
            + "<x:dimension ref=\"A1:B2\"/><x:sheetData>"
            + "<x:row r=\"1\"><x:c r=\"A1\" t=\"inlineStr\"><x:is><x:t>VT Tag</x:t></x:is></x:c>"
            + "<x:c r=\"B1\" t=\"inlineStr\"><x:is><x:t>Serial Number</x:t></x:is></x:c></x:row>"
            + "<x:row r=\"2\"><x:c r=\"A2\" t=\"inlineStr\"><x:is><x:t>004512</x:t></x:is></x:c></x:row>"
            + "<x:row r=\"7\" ht=\"20\" customHeight=\"1\"/></x:sheetData></x:worksheet>"
        var fixture = CentralWorkbookFixture(workbook: CentralWorkbookFixture.handWritten(sheet: sheet))
        fixture.sighting("survey.csv", "P-Tag,Serial\n4512,\n4600,S-1\n4601,S-2\n")
        let plan = try fixture.plan(WriteBackOptions(addUnrecorded: true))
        let edited = plan.editedSheet()
        #expect(
            try CentralWorkbookFixture.part("xl/worksheets/sheet1.xml", of: edited)
                == "<x:worksheet xmlns:x=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
                + "<x:dimension ref=\"A1:B9\"/><x:sheetData>"
                + "<x:row r=\"1\"><x:c r=\"A1\" t=\"inlineStr\"><x:is><x:t>VT Tag</x:t></x:is></x:c>"
                + "<x:c r=\"B1\" t=\"inlineStr\"><x:is><x:t>Serial Number</x:t></x:is></x:c></x:row>"
                + "<x:row r=\"2\"><x:c r=\"A2\" t=\"inlineStr\"><x:is><x:t>004512</x:t></x:is></x:c></x:row>"
                + "<x:row r=\"7\" ht=\"20\" customHeight=\"1\"/>"
                + "<x:row r=\"8\"><x:c r=\"A8\" t=\"inlineStr\"><x:is><x:t xml:space=\"preserve\">004600</x:t></x:is>"
                + "</x:c><x:c r=\"B8\" t=\"inlineStr\"><x:is><x:t xml:space=\"preserve\">S-1</x:t></x:is></x:c></x:row>"
                + "<x:row r=\"9\"><x:c r=\"A9\" t=\"inlineStr\"><x:is><x:t xml:space=\"preserve\">004601</x:t></x:is>"
                + "</x:c><x:c r=\"B9\" t=\"inlineStr\"><x:is><x:t xml:space=\"preserve\">S-2</x:t></x:is></x:c></x:row>"
                + "</x:sheetData></x:worksheet>")
        #expect(try fixture.plan(WriteBackOptions(addUnrecorded: true), central: edited).changes.isEmpty)
    }

    @Test func theSheetTheAccountNamesIsTheOneEdited() throws {
        let parts: [(String, String)] = [
            ("_rels/.rels", WorkbookTests.rootRelationships),
            (
                "xl/workbook.xml",
                "<workbook \(Self.namespace) xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/"
                    + "relationships\"><sheets><sheet name=\"Notes\" sheetId=\"1\" r:id=\"rId1\"/>"
                    + "<sheet name=\"APs\" sheetId=\"2\" r:id=\"rId2\"/></sheets></workbook>"
            ),
            (
                "xl/_rels/workbook.xml.rels",
                WorkbookTests.relationships([
                    ("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId2", "worksheet", "worksheets/sheet2.xml"),
                ])
            ),
            ("xl/worksheets/sheet1.xml", Self.sheet("<row r=\"1\"><c r=\"A1\"><v>4512</v></c></row>")),
            (
                "xl/worksheets/sheet2.xml",
                Self.sheet(
                    "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>VT Tag</t></is></c></row>"
                        + "<row r=\"2\"><c r=\"A2\"><v>4512</v></c></row>")
            ),
        ]
        var fixture = CentralWorkbookFixture(workbook: TestZip.build(parts.map { TestZipEntry($0.0, $0.1) }))
        fixture.sheet = "APs"
        fixture.sighting("survey.csv", "P-Tag\n4512\n")
        let edited = try fixture.plan().editedSheet()
        let pulled = try CentralWorkbookFixture.storedRecords(fixture.workbook)
        let pushed = try CentralWorkbookFixture.storedRecords(edited)
        #expect(pushed.map(\.name) == pulled.map(\.name))
        #expect(
            pushed.filter { $0.name != "xl/worksheets/sheet2.xml" }.map(\.record)
                == pulled.filter { $0.name != "xl/worksheets/sheet2.xml" }.map(\.record))
        #expect(
            try CentralWorkbookFixture.part("xl/worksheets/sheet2.xml", of: edited).contains(
                "<c r=\"A2\" t=\"inlineStr\"><is><t xml:space=\"preserve\">004512</t></is></c>"))
    }

    @Test func aWorksheetDeclaringEntitiesIsRefusedNamingThePart() throws {
        let sheet = "<!DOCTYPE worksheet [<!ENTITY x \"4512\">]>" + Self.sheet(Self.rows)
        #expect {
            try WorksheetEdit(
                bytes: CentralWorkbookFixture.handWritten(sheet: sheet, sharedStrings: Self.sharedStrings),
                fileName: "central.xlsx", sheet: nil)
        } throws: { error in
            (error as? StocktakeError)?.description
                == "central.xlsx: the workbook part xl/worksheets/sheet1.xml declares XML entities, which stocktake "
                + "refuses to read (they can hide or fetch content). Open the workbook in Excel and save it again as "
                + ".xlsx."
        }
    }

    @Test(arguments: [(0, "A"), (25, "Z"), (26, "AA"), (701, "ZZ"), (702, "AAA"), (16383, "XFD")])
    func columnLettersAreExcels(column: Int, letters: String) {
        #expect(WorksheetEdit.letters(column) == letters)
    }
}
