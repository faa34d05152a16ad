import Testing

@testable import StocktakeCore

struct WorksheetLayoutTests {
    private func layout(_ xml: String) throws(XMLError) -> WorksheetLayout {
        let bytes = Array(xml.utf8)
        return try bytes.withUnsafeBufferPointer { buffer throws(XMLError) in try WorksheetLayout(bytes: buffer) }
    }

    /// The text of `range` in `xml`.
    private func text(_ range: Range<Int>, in xml: String) -> String {
        String(decoding: Array(xml.utf8)[range], as: UTF8.self)
    }

    static let sheet = """
        <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:D3"/>\
        <sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" s="3" t="s"><v>1</v></c></row>\
        <row r="2"><c r="A2" s="7"><v>4512</v></c><c r="B2"><f>A2*2</f><v>9024</v></c>\
        <c r="C2" t="inlineStr"><is><r><t>rich</t></r><r><rPr><b/></rPr><t> text</t></r></is></c>\
        <c r="D2" t="inlineStr"><is><t>plain</t></is></c></row>\
        <row r="3"><c r="A3"><f t="array" ref="A3:B3">{1,2}</f><v>1</v></c><c r="B3"><v>2</v></c><c r="C3"/></row>\
        <row r="9" customHeight="1"/></sheetData><pageMargins left="0.7"/></worksheet>
        """

    @Test func findsEveryRowAndCellWithWhatAnEditMustLeaveAlone() throws {
        let layout = try layout(Self.sheet)
        #expect(layout.rows.map(\.number) == [1, 2, 3], "the empty row element holds no cell")
        #expect(layout.lastRowNumber == 9, "appended rows follow the empty row element")
        #expect(layout.rowsAreOrdered)
        let ordered = layout.rows.map(\.cellsAreOrdered)
        #expect(ordered == [true, true, true])
        #expect(layout.prefix.isEmpty)
        #expect(layout.dimension.map { text($0, in: Self.sheet) } == "A1:D3")
        #expect(layout.sheetDataEnd.map { text($0..<($0 + 12), in: Self.sheet) } == "</sheetData>")
        let cells = layout.rows.flatMap { row in row.cells.map { (row.number, $0) } }
        #expect(
            cells.map { "\($0.0):\($0.1.column)" } == ["1:0", "1:1", "2:0", "2:1", "2:2", "2:3", "3:0", "3:1", "3:2"])
        let protected = cells.filter { $0.1.isProtected }.map { "\($0.0):\($0.1.column)" }
        #expect(
            protected == ["2:1", "2:2", "3:0", "3:1"],
            "a formula, rich text, an array formula and the cell its range covers")
        #expect(text(cells[3].1.range, in: Self.sheet) == "<c r=\"B2\"><f>A2*2</f><v>9024</v></c>")
        #expect(text(cells[8].1.range, in: Self.sheet) == "<c r=\"C3\"/>")
        #expect(text(cells[1].1.style, in: Self.sheet) == "3")
        #expect(text(cells[2].1.style, in: Self.sheet) == "7")
        #expect(cells[0].1.style.isEmpty)
        #expect(text(layout.rows[0].contentEnd..<(layout.rows[0].contentEnd + 6), in: Self.sheet) == "</row>")
    }

    @Test func aRowWithoutNumberFollowsTheOneBeforeAndCellsWithoutReferenceTheCellBefore() throws {
        let layout = try layout(
            "<worksheet><sheetData><row><c><v>1</v></c><c><v>2</v></c></row><row><c r=\"C2\"><v>3</v></c></row>"
                + "</sheetData></worksheet>")
        #expect(layout.rows.map(\.number) == [1, 2])
        #expect(layout.rows[0].cells.map(\.column) == [0, 1])
        #expect(!layout.rows[0].cellsAreOrdered, "cells without a reference cannot take an inserted cell")
        #expect(layout.rows[1].cellsAreOrdered)
        #expect(layout.rows[1].cells.map(\.column) == [2])
    }

    @Test func rowsOutOfOrderOrRepeatedAndCellsOutOfOrderAreNoticed() throws {
        let repeated = try layout(
            "<worksheet><sheetData><row r=\"2\"><c r=\"A2\"/></row><row r=\"2\"><c r=\"A2\"/></row></sheetData>"
                + "</worksheet>")
        #expect(!repeated.rowsAreOrdered)
        let descending = try layout(
            "<worksheet><sheetData><row r=\"3\"/><row r=\"2\"><c r=\"B2\"/><c r=\"A2\"/></row></sheetData></worksheet>")
        #expect(!descending.rowsAreOrdered, "an empty row element counts too")
        #expect(!descending.rows[0].cellsAreOrdered)
    }

    @Test func aPrefixedWorksheetGivesItsPrefixToNewElements() throws {
        let xml =
            "<x:worksheet xmlns:x=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><x:sheetData>"
            + "<x:row r=\"1\"><x:c r=\"A1\"><x:v>1</x:v></x:c></x:row></x:sheetData></x:worksheet>"
        let layout = try layout(xml)
        #expect(String(decoding: layout.prefix, as: UTF8.self) == "x:")
        #expect(layout.sheetDataEnd.map { text($0..<($0 + 14), in: xml) } == "</x:sheetData>")
        #expect(layout.rows.first?.cells.count == 1)
    }

    @Test func aWorksheetWithoutSheetDataHasNowhereToAppend() throws {
        #expect(try layout("<worksheet><sheetData/></worksheet>").sheetDataEnd == nil)
        #expect(try layout("<worksheet/>").rows.isEmpty)
    }

    @Test func damagedXMLAndAReferenceThatIsNoCellAreRefused() throws {
        #expect(throws: XMLError.unexpectedEnd) {
            try layout("<worksheet><sheetData><row r=\"1\"><c r=\"A1\"><v>1</v></c>")
        }
        #expect(throws: XMLError.malformedMarkup(offset: 39)) {
            try layout("<worksheet><sheetData><row r=\"1\"><c r=\"1A\"/></row></sheetData></worksheet>")
        }
    }

    @Test(arguments: [
        ("B2:C5", "2...5 1...2"), ("$A$1", "1...1 0...0"), ("AA10:AB11", "10...11 26...27"), ("C5:B2", "nil"),
        ("A1:", "nil"), ("A", "nil"), ("A1:B2:C3", "nil"),
    ])
    func readsAnAreaAsExcelWritesIt(reference: String, expected: String) {
        let area = Array(reference.utf8).withUnsafeBufferPointer { WorksheetLayout.area($0) }
        #expect(area.map { "\($0.rows) \($0.columns)" } ?? "nil" == expected)
    }
}
