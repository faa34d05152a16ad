import Testing

@testable import StocktakeGenerator

@Suite struct SourceFileWriterTests {
    private func row(_ tag: String, group: Int, rank: UInt64, marker: Int? = nil) -> PlannedRow {
        PlannedRow(
            cells: [.tag: tag, .custodian: "jdoe", .department: "Facilities, Planning"],
            order: PlannedRow.SortKey(group: group, rank: rank), marker: marker)
    }

    @Test func sortsRowsAndReportsMarkedRowNumbers() {
        let rendered = SourceFileWriter.render(
            .propertyTags, rows: [row("2", group: 0, rank: 9, marker: 7), row("1", group: 0, rank: 3)])
        let text = String(decoding: rendered.bytes, as: UTF8.self)
        #expect(text == "Inventory Number,Description,Custodian PID,Acquired\n1,,jdoe,\n2,,jdoe,\n")
        #expect(rendered.rowNumbers == [7: 2])
    }

    @Test func centralHasAByteOrderMarkAndCRLF() {
        let rendered = SourceFileWriter.render(.central, rows: [row("000001", group: 0, rank: 1)])
        #expect(Array(rendered.bytes.prefix(3)) == [0xEF, 0xBB, 0xBF])
        let text = String(decoding: rendered.bytes.dropFirst(3), as: UTF8.self)
        #expect(text.hasSuffix("\r\n000001,,,,,,,,,jdoe,,\r\n"))
    }

    @Test func custodianListQuotesDepartmentsAndCarriesBlankLines() {
        let rows = (0..<400).map { row(String($0), group: 0, rank: UInt64($0)) }
        let text = String(decoding: SourceFileWriter.render(.custodians, rows: rows).bytes, as: UTF8.self)
        #expect(text.hasPrefix("Asset Tag,Assigned To,Department\n0,jdoe,\"Facilities, Planning\"\n"))
        #expect(text.hasSuffix("399,jdoe,\"Facilities, Planning\"\n\n\n\n"))
    }

    @Test func billingHasTwoTrailingEmptyColumns() {
        let text = String(
            decoding: SourceFileWriter.render(.billing, rows: [row("5", group: 0, rank: 0)]).bytes, as: UTF8.self)
        #expect(text == "Tag No,CNS No,Stock #,Amount,,\r\n5,,,,,\r\n")
    }
}
