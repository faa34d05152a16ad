import Testing

@testable import StocktakeCore

struct WorksheetReaderTests {
    static let sharedStrings = """
        <sst><si><t>tag</t></si><si><t>building</t></si><si><r><t>Bât</t></r><r><t>iment A</t></r></si></sst>
        """
    static let styles = """
        <styleSheet><numFmts><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/>\
        <numFmt numFmtId="165" formatCode="&quot;T&quot;0.0E+0;&quot;minus&quot;"/></numFmts>
        <cellXfs><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="2"/><xf numFmtId="11"/>\
        <xf numFmtId="165"/><xf numFmtId="48"/></cellXfs></styleSheet>
        """

    /// The rows of `sheetData` (the `<row>` elements) as (line, fields).
    static func rows(
        _ sheetData: String, dimension: String? = nil, system: ExcelDate.System = .from1900
    ) throws -> [(line: Int, fields: [String])] {
        let strings = try Array(sharedStrings.utf8).withUnsafeBufferPointer { try SharedStrings(part: $0) }
        let cellStyles = try Array(styles.utf8).withUnsafeBufferPointer { try CellStyles(part: $0) }
        let reader = WorksheetReader(
            file: "assets.xlsx", part: "xl/worksheets/sheet1.xml", sharedStrings: strings, styles: cellStyles,
            dateSystem: system)
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">\
            \(dimension.map { "<dimension ref=\"\($0)\"/>" } ?? "")<sheetViews><sheetView/></sheetViews>\
            <sheetData>\(sheetData)</sheetData><mergeCells count="0"/></worksheet>
            """
        var rows: [(line: Int, fields: [String])] = []
        try reader.forEachRecord(in: Array(xml.utf8)) { record in
            #expect(record.lineCount == 1 && record.problems.isEmpty)
            rows.append((record.line, record.strings))
        }
        return rows
    }

    static func fields(_ sheetData: String, dimension: String? = nil) throws -> [[String]] {
        try rows(sheetData, dimension: dimension).map(\.fields)
    }

    @Test func readsEveryCellType() throws {
        let sheetData = """
            <row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>2</v></c><c r="C1" t="b"><v>1</v></c>\
            <c r="D1" t="b"><v>0</v></c><c r="E1" t="e"><v>#N/A</v></c><c r="F1" t="str"><f>A1&amp;"x"</f><v>tagx</v></c>\
            <c r="G1" t="inlineStr"><is><t>in &lt;line&gt;</t></is></c><c r="H1" t="d"><v>2024-03-01T10:00:00</v></c>\
            <c r="I1" t="n"><v>12976</v></c><c r="J1"><v>1234.0</v></c><c r="K1"><v>4.5E+5</v></c>\
            <c r="L1" s="3"><v>-3.25</v></c></row>
            """
        #expect(
            try Self.fields(sheetData) == [
                [
                    "tag", "Bâtiment A", "TRUE", "FALSE", "#N/A", "tagx", "in <line>", "2024-03-01T10:00:00", "12976",
                    "1234", "450000", "-3.25",
                ]
            ])
    }

    @Test func readsDatesByStyleInBothSystems() throws {
        let sheetData = """
            <row r="2"><c r="A2" s="1"><v>45292</v></c><c r="B2" s="2"><v>45292.5</v></c><c r="C2" s="0"><v>45292</v></c>\
            <c r="D2" s="1"><v>60</v></c><c r="E2" s="9"><v>45292</v></c></row>
            """
        #expect(try Self.fields(sheetData) == [["2024-01-01", "2024-01-01T12:00:00", "45292", "1900-02-29", "45292"]])
        let rows = try Self.rows("<row r=\"2\"><c r=\"A2\" s=\"1\"><v>43830</v></c></row>", system: .from1904)
        #expect(rows.map(\.fields) == [["2024-01-01"]])
    }

    /// A number in a scientific style reads as Excel shows it and writes it into a CSV, so a tag Excel turned into
    /// `1.86E+21` is reported as mangled, as in the CSV; a text cell in that style stays text.
    @Test func readsNumbersInScientificStylesAsExcelShowsThem() throws {
        let sheetData = """
            <row r="1"><c r="A1" s="4"><v>77200</v></c><c r="B1" s="4"><v>186472975E13</v></c>\
            <c r="C1" s="6"><v>77200</v></c><c r="D1" s="5"><v>12976</v></c><c r="E1" s="5"><v>-12976</v></c>\
            <c r="F1" s="4" t="s"><v>0</v></c><c r="G1" s="4" t="str"><v>77200</v></c><c r="H1" s="4"><v>0</v></c>\
            <c r="I1" s="4"><v>-4.5E-7</v></c><c r="J1" s="3"><v>77200</v></c><c r="K1" s="1"><v>45292</v></c></row>
            """
        #expect(
            try Self.fields(sheetData) == [
                [
                    "7.72E+04", "1.86E+21", "77.2E+3", "T1.3E+4", "minus", "tag", "77200", "0.00E+00", "-4.50E-07",
                    "77200", "2024-01-01",
                ]
            ])
    }

    @Test func placesCellsByReferenceAndFillsGapsWithEmptyFields() throws {
        let sheetData = """
            <row r="3"><c r="B3"><v>2</v></c><c r="D3" t="s"><v>1</v></c></row>\
            <row r="7" spans="1:4"><c r="AA7"><v>27</v></c></row>
            """
        let rows = try Self.rows(sheetData)
        #expect(rows.map(\.line) == [3, 7])
        #expect(rows[0].fields == ["", "2", "", "building"])
        #expect(rows[1].fields == Array(repeating: "", count: 26) + ["27"])
    }

    @Test func countsRowsAndCellsWithoutReferences() throws {
        let sheetData = """
            <row r="4"><c><v>1</v></c><c><v>2</v></c></row><row><c><v>3</v></c><c/><c><v>5</v></c></row>\
            <row><c r="C6"><v>6</v></c><c><v>7</v></c></row>
            """
        let rows = try Self.rows(sheetData)
        #expect(rows.map(\.line) == [4, 5, 6])
        // Without a dimension, a row is as wide as the widest row so far.
        #expect(rows.map(\.fields) == [["1", "2"], ["3", "", "5"], ["", "", "6", "7"]])
    }

    @Test func padsRowsToTheDimensionAndSkipsBlankRows() throws {
        let sheetData = """
            <row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" s="1"/><c r="B2" t="inlineStr"><is><t></t></is></c></row>\
            <row r="3"/><row r="4"><c r="B4"><v>9</v></c></row>
            """
        #expect(try Self.fields(sheetData, dimension: "A1:C4") == [["tag", "", ""], ["", "9", ""]])
        #expect(try Self.fields(sheetData, dimension: "A1:XFD1048576") == [["tag"], ["", "9"]])
        #expect(try Self.fields(sheetData, dimension: "A1") == [["tag"], ["", "9"]])
    }

    @Test func decodesReferencesInValuesAndEscapesInInlineStrings() throws {
        let sheetData = """
            <row r="1"><c r="A1" t="str"><v>a &amp; b</v></c><c r="B1"><v>1&#48;</v></c><c r="C1" t="inlineStr"><is>\
            <r><t>x_x000D_</t></r><rPh><t>ignored</t></rPh><r><t><![CDATA[<y>]]></t></r></is></c>\
            <c r="D1" t="e"><v><![CDATA[#DIV/0!]]></v></c></row>
            """
        #expect(try Self.fields(sheetData) == [["a & b", "10", "x\r<y>", "#DIV/0!"]])
    }

    @Test func readsPrefixedElements() throws {
        let xml = """
            <x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>\
            <x:row r="1"><x:c r="A1" t="s"><x:v>1</x:v></x:c><x:c r="B1"><x:v>5</x:v></x:c></x:row></x:sheetData></x:worksheet>
            """
        let strings = try Array(Self.sharedStrings.utf8).withUnsafeBufferPointer { try SharedStrings(part: $0) }
        let reader = WorksheetReader(
            file: "a.xlsx", part: "xl/worksheets/sheet1.xml", sharedStrings: strings, styles: CellStyles(),
            dateSystem: .from1900)
        var rows: [[String]] = []
        try reader.forEachRecord(in: Array(xml.utf8)) { rows.append($0.strings) }
        #expect(rows == [["building", "5"]])
    }

    @Test func refusesAReferenceToAMissingSharedString() throws {
        var delivered: [[String]] = []
        let error = #expect(throws: WorkbookError.self) {
            let strings = try Array(Self.sharedStrings.utf8).withUnsafeBufferPointer { try SharedStrings(part: $0) }
            let reader = WorksheetReader(
                file: "assets.xlsx", part: "xl/worksheets/sheet1.xml", sharedStrings: strings, styles: CellStyles(),
                dateSystem: .from1900)
            let xml = """
                <worksheet><sheetData><row r="1"><c t="s"><v>1</v></c></row>\
                <row r="2"><c r="A2"><v>1</v></c><c r="C2" t="s"><v>3</v></c></row></sheetData></worksheet>
                """
            try reader.forEachRecord(in: Array(xml.utf8)) { delivered.append($0.strings) }
        }
        #expect(
            error?.description
                == "assets.xlsx: cell C2 of xl/worksheets/sheet1.xml refers to shared string 3, but the workbook has 3. "
                + "Open the workbook in Excel and save it again.")
        #expect(delivered == [["building"]])
    }

    @Test func refusesDamagedXMLNamingThePart() throws {
        var delivered: [[String]] = []
        let error = #expect(throws: WorkbookError.self) {
            let reader = WorksheetReader(
                file: "assets.xlsx", part: "xl/worksheets/sheet1.xml", sharedStrings: SharedStrings(),
                styles: CellStyles(), dateSystem: .from1900)
            let xml = "<worksheet><sheetData><row r=\"1\"><c r=\"A1\"><v>1</v></c></row><row r=\"2\"><c r=\"A2\"><v>2"
            try reader.forEachRecord(in: Array(xml.utf8)) { delivered.append($0.strings) }
        }
        #expect(
            error?.description
                == "assets.xlsx: the workbook part xl/worksheets/sheet1.xml is damaged: it ends in the middle of its XML "
                + "(the file may be truncated). Open the workbook in Excel and save it again, or save it as CSV UTF-8.")
        #expect(delivered == [["1"]])
    }

    @Test func refusesAnEntityDeclaration() throws {
        let error = #expect(throws: WorkbookError.self) {
            let reader = WorksheetReader(
                file: "assets.xlsx", part: "xl/worksheets/sheet1.xml", sharedStrings: SharedStrings(),
                styles: CellStyles(), dateSystem: .from1900)
            let xml = """
                <!DOCTYPE worksheet [<!ENTITY x SYSTEM "file:///etc/passwd">]>
                <worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>&x;</t></is></c></row></sheetData></worksheet>
                """
            try reader.forEachRecord(in: Array(xml.utf8)) { _ in Issue.record("a row was delivered") }
        }
        #expect(
            error?.description
                == "assets.xlsx: the workbook part xl/worksheets/sheet1.xml declares XML entities, which stocktake "
                + "refuses to read (they can hide or fetch content). Open the workbook in Excel and save it again as .xlsx."
        )
    }

    @Test func namesCells() {
        #expect(WorkbookError.cellName(row: 1, column: 0) == "A1")
        #expect(WorkbookError.cellName(row: 9, column: 25) == "Z9")
        #expect(WorkbookError.cellName(row: 2, column: 26) == "AA2")
        #expect(WorkbookError.cellName(row: 3, column: 16383) == "XFD3")
    }
}
