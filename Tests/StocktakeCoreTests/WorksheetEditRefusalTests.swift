import Testing

@testable import StocktakeCore

/// Worksheets a change cannot be placed in exactly: the plan lists the changes, refuses the edit with a sentence
/// naming the file and why, and its edited sheet is the pulled workbook itself.
struct WorksheetEditRefusalTests {
    private static let header =
        "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>VT Tag</t></is></c>"
        + "<c r=\"B1\" t=\"inlineStr\"><is><t>Room</t></is></c></row>"

    private func plan(_ rows: String, extra: [(String, String)] = [], survey: String) throws -> (
        WriteBackPlan, [UInt8]
    ) {
        let workbook = CentralWorkbookFixture.handWritten(
            sheet: WorksheetEditTests.sheet(Self.header + rows), extra: extra)
        var fixture = CentralWorkbookFixture(workbook: workbook)
        fixture.sighting("survey.csv", survey)
        return (try fixture.plan(), workbook)
    }

    @Test func rowsOutOfOrderAreNotEdited() throws {
        let (plan, pulled) = try plan(
            "<row r=\"3\"><c r=\"A3\"><v>4513</v></c></row><row r=\"2\"><c r=\"A2\"><v>4512</v></c></row>",
            survey: "P-Tag\n4512\n4513\n")
        #expect(plan.changes.count == 2, "changes.csv still lists both tags")
        #expect(plan.refusal == .rowsOutOfOrder(file: "central.xlsx", sheet: "Assets"))
        #expect(
            plan.refusal?.description
                == "central.xlsx: the rows of sheet \"Assets\" are not in ascending order (or a row number repeats), "
                + "so its cells cannot be changed safely; the central sheet was not pushed. Open the workbook in "
                + "Excel or LibreOffice and save it again; changes.csv lists what the push would change.")
        #expect(plan.editedSheet() == pulled)
    }

    @Test func aCellCannotBeInsertedIntoARowWhoseCellsHaveNoReference() throws {
        let (plan, pulled) = try plan("<row r=\"2\"><c><v>4512</v></c></row>", survey: "P-Tag,Room\n4512,205\n")
        #expect(plan.changes.map(\.column) == ["VT Tag", "Room"])
        #expect(plan.refusal == .cellsOutOfOrder(file: "central.xlsx", sheet: "Assets", row: 2))
        #expect(
            plan.refusal?.description
                == "central.xlsx: row 2 of sheet \"Assets\" has cells without a reference or out of column order, so "
                + "a cell cannot be changed or added in it safely; the central sheet was not pushed. Open the "
                + "workbook in Excel or LibreOffice and save it again; changes.csv lists what the push would change.")
        #expect(plan.editedSheet() == pulled)
    }

    @Test func aChangedCellWhoseColumnIsWrittenTwiceIsNotEdited() throws {
        let (plan, pulled) = try plan(
            "<row r=\"2\"><c r=\"A2\"><v>4512</v></c><c r=\"B2\" t=\"inlineStr\"><is><t>b-1</t></is></c>"
                + "<c r=\"B2\" t=\"inlineStr\"><is><t>b-2</t></is></c></row>",
            survey: "P-Tag\n004512\n")
        #expect(plan.changes.map(\.column) == ["VT Tag", "Room"])
        #expect(plan.refusal == .cellsOutOfOrder(file: "central.xlsx", sheet: "Assets", row: 2))
        #expect(plan.editedSheet() == pulled)
    }

    @Test func cellsWithoutReferenceAreStillReplacedInPlace() throws {
        let (plan, pulled) = try plan(
            "<row r=\"2\"><c><v>4512</v></c><c t=\"inlineStr\"><is><t>b-1</t></is></c></row>",
            survey: "P-Tag\n4512\n")
        #expect(plan.refusal == nil)
        #expect(plan.editedSheet() != pulled)
        #expect(
            try CentralWorkbookFixture.part("xl/worksheets/sheet1.xml", of: plan.editedSheet()).contains(
                "<row r=\"2\"><c r=\"A2\" t=\"inlineStr\"><is><t xml:space=\"preserve\">004512</t></is></c>"
                    + "<c r=\"B2\" t=\"inlineStr\"><is><t xml:space=\"preserve\">B-1</t></is></c></row>"))
    }

    @Test func aWorkbookWithTwoPartsOfOneNameIsNotWrittenAgain() throws {
        let (plan, pulled) = try plan(
            "<row r=\"2\"><c r=\"A2\"><v>4512</v></c></row>",
            extra: [("docProps/app.xml", "<a/>"), ("docProps/app.xml", "<b/>")],
            survey: "P-Tag\n4512\n")
        #expect(plan.refusal == .duplicateEntry(file: "central.xlsx", name: "docProps/app.xml"))
        #expect(
            plan.refusal?.description
                == "central.xlsx: the workbook holds two parts named docProps/app.xml, so it cannot be written again "
                + "safely; the central sheet was not pushed. Open the workbook in Excel or LibreOffice and save it "
                + "again; changes.csv lists what the push would change.")
        #expect(plan.editedSheet() == pulled)
    }

    @Test func aWorkbookWithNothingToChangeIsNeverRefused() throws {
        // Rows out of order, and nothing to change: the push is "up to date", not refused.
        let (quiet, pulled) = try plan(
            "<row r=\"3\"><c r=\"A3\" t=\"inlineStr\"><is><t>004513</t></is></c></row>"
                + "<row r=\"2\"><c r=\"A2\" t=\"inlineStr\"><is><t>004512</t></is></c></row>",
            survey: "P-Tag\n004512\n")
        #expect(quiet.changes.isEmpty)
        #expect(quiet.refusal == nil)
        #expect(quiet.editedSheet() == pulled)
    }
}
