import Testing

@testable import StocktakeCore

@Suite("ChangeGroups: changes.csv grouped by column")
struct ChangeGroupsTests {
    static let changes: SheetChanges = [
        SheetChange(
            row: 1, vtTag: OutputFixture.tag(1), column: "Room", before: "1", after: "101", reason: .normalized),
        SheetChange(row: 1, vtTag: OutputFixture.tag(1), column: "Model", before: "", after: "AP", reason: .filled),
        SheetChange(
            row: 3, vtTag: OutputFixture.tag(3), column: "Room", before: "9", after: "109", reason: .overwritten),
        SheetChange(row: 4, vtTag: OutputFixture.tag(4), column: "Room", before: "", after: "200", reason: .filled),
        SheetChange(row: 9, vtTag: OutputFixture.tag(9), column: "Room", before: "", after: "300", reason: .added),
    ]

    @Test func changesAreGroupedByColumnWithTheirReasons() {
        let groups = ChangeGroups(Self.changes, shown: 2)
        #expect(groups.groups.map(\.column) == ["Room", "Model"])
        #expect(groups.groups.map(\.count) == [4, 1])
        #expect(groups.groups[0].reasons.map(\.reason) == [.normalized, .filled, .overwritten, .added])
        #expect(groups.groups[0].changes == Array(Self.changes[0...0]) + [Self.changes[2]])
        #expect(groups.changedCells == 4)
        #expect(groups.changedRows == 3)
        #expect(groups.addedRows == 1)
        let html = groups.html()
        #expect(
            html.contains(
                "<details class=\"changes\"><summary><strong>Room</strong>: 4 cells (1 normalized, 1 filled, "
                    + "1 overwritten, 1 added)</summary>"))
        #expect(
            html.contains(
                "<tr><td data-l=\"Row\">3</td><td data-l=\"VT tag\">000003</td><td data-l=\"Before\">9</td>"
                    + "<td data-l=\"After\">109</td><td data-l=\"Why\">overwritten</td></tr>"))
        #expect(html.contains("<p>2 more changes of this column are listed in changes.csv.</p>"))
        #expect(!html.contains("000004"))
        #expect(ChangeGroups(Self.changes, shown: 3).html().contains("<p>1 more change of this column is listed in "))
    }

    @Test func noChangeSaysSo() {
        #expect(ChangeGroups([]).html() == "<p>The write-back planned no change to the central sheet.</p>\n")
    }

    @Test func rowsListedOutOfOrderAreCountedOnce() {
        let changes: SheetChanges = [
            SheetChange(row: 3, vtTag: nil, column: "Room", before: "1", after: "101", reason: .normalized),
            SheetChange(row: 1, vtTag: nil, column: "Room", before: "2", after: "102", reason: .normalized),
            SheetChange(row: 3, vtTag: nil, column: "Model", before: "", after: "AP", reason: .filled),
            SheetChange(row: 7, vtTag: nil, column: "Room", before: "", after: "300", reason: .added),
        ]
        let groups = ChangeGroups(changes)
        #expect(groups.changedCells == 3)
        #expect(groups.changedRows == 2)
        #expect(groups.addedRows == 1)
        #expect(groups.groups.map(\.column) == ["Room", "Model"])
        #expect(groups.groups.map(\.count) == [3, 1])
    }

    @Test func reasonsArePlacedInTheOrderOfAllCases() {
        for reason in ChangeReason.allCases {
            #expect(ChangeGroups.position(of: reason) == ChangeReason.allCases.firstIndex(of: reason))
        }
    }
}
