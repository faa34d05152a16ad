import Testing

@testable import StocktakeCore

@Suite struct ChangeTableTests {
    @Test func writesOneRowPerChangeWithCRLFQuotingAndNeutralizedFormulas() {
        let changes: SheetChanges = [
            SheetChange(
                row: 1, vtTag: VTTag(number: 1234, digits: 6), column: "Room", before: "b-12, west",
                after: "B-12, WEST", reason: .normalized),
            SheetChange(row: 2, vtTag: nil, column: "Custodian", before: "", after: "'=cmd()", reason: .filled),
            SheetChange(
                row: 3, vtTag: VTTag(number: 9999, digits: 6), column: "Notes \"x\"", before: "=HYPERLINK(\"a\")",
                after: "-80.4139", reason: .overwritten),
            SheetChange(
                row: 4, vtTag: VTTag(number: 42, digits: 6), column: "VT Tag", before: "", after: "000042",
                reason: .added),
        ]
        let text = String(decoding: ChangeTable.csv(changes), as: UTF8.self)
        #expect(
            text
                == "row,vt_tag,column,before,after,reason\r\n"
                + "1,001234,Room,\"b-12, west\",\"B-12, WEST\",normalized\r\n"
                + "2,,Custodian,,'=cmd(),filled\r\n"
                + "3,009999,\"Notes \"\"x\"\"\",\"'=HYPERLINK(\"\"a\"\")\",-80.4139,overwritten\r\n"
                + "4,000042,VT Tag,,000042,added\r\n")
    }

    @Test func noChangesIsTheHeaderAlone() {
        #expect(String(decoding: ChangeTable.csv([]), as: UTF8.self) == "row,vt_tag,column,before,after,reason\r\n")
    }

    @Test func writesTheFile() throws {
        let folder = TemporaryFolder()
        let path = folder.path("changes.csv")
        let changes: SheetChanges = [
            SheetChange(row: 7, vtTag: nil, column: "Room", before: "", after: "101", reason: .filled)
        ]
        try ChangeTable.write(changes, to: path)
        #expect(folder.read("changes.csv") == "row,vt_tag,column,before,after,reason\r\n7,,Room,,101,filled\r\n")
    }

    @Test func writesTheChangesOfAPlanFromTheSheetsBytes() throws {
        var fixture = ReconcileFixture(
            central: "VT Tag,Room,Custodian\n1234,\"b-12, \"\"west\"\"\",\n004513,=1+2,\n004514,,\n")
        fixture.sighting("survey.csv", "P-Tag,Custodian\n001234,@jdoe\n004514,\"Doe, Jane\"\n009999,x\n")
        let reconciliation = try fixture.reconcile()
        let plan = try WriteBackPlan(
            sheet: Array(fixture.files[0].text.utf8), fileName: "central.csv", reader: SourceReader(mapping: .builtIn),
            reconciliation: reconciliation, options: WriteBackOptions(addUnrecorded: true))
        let text = String(decoding: ChangeTable.csv(plan.changes), as: UTF8.self)
        #expect(
            text
                == "row,vt_tag,column,before,after,reason\r\n"
                + "1,001234,VT Tag,1234,001234,normalized\r\n"
                + "1,001234,Room,\"b-12, \"\"west\"\"\",\"B-12, \"\"WEST\"\"\",normalized\r\n"
                + "1,001234,Custodian,,'@jdoe,filled\r\n"
                + "3,004514,Custodian,,\"Doe, Jane\",filled\r\n"
                + "4,009999,VT Tag,,009999,added\r\n"
                + "4,009999,Custodian,,x,added\r\n")
        // The same rows as the changes read one by one.
        #expect(ChangeTable.csv(plan.changes) == ChangeTable.csv(SheetChanges(Array(plan.changes))))
    }
}
