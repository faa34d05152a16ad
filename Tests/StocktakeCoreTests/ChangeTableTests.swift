import Testing

@testable import StocktakeCore

@Suite struct ChangeTableTests {
    @Test func writesOneRowPerChangeWithCRLFQuotingAndNeutralizedFormulas() {
        let changes = [
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
        let changes = [
            SheetChange(row: 7, vtTag: nil, column: "Room", before: "", after: "101", reason: .filled)
        ]
        try ChangeTable.write(changes, to: path)
        #expect(folder.read("changes.csv") == "row,vt_tag,column,before,after,reason\r\n7,,Room,,101,filled\r\n")
    }
}
