import Testing

@testable import StocktakeCore

@Suite("AcknowledgementFile: acknowledged.csv")
struct AcknowledgementFileTests {
    let folder = TemporaryFolder()

    static let header = "id,note,until,by,acknowledged_on,evidence"

    static func day(_ day: Int) -> InventoryDate { InventoryDate(year: 2026, month: 11, day: day)! }

    static let first = FindingID("F7K2-Q9MD")!
    static let second = FindingID("4ET3-T8AG")!
    static let third = FindingID("MEBJ-H3NF")!

    @Test func theHeaderIsTheDocumentedColumnOrder() {
        #expect(AcknowledgementFile.columns.joined(separator: ",") == Self.header)
    }

    @Test func noFileMeansNoAcknowledgements() throws {
        let contents = try AcknowledgementFile.read(folder.path("acknowledged.csv"), name: "acknowledged.csv")
        #expect(contents.acknowledgements.isEmpty)
        #expect(contents.problems.isEmpty)
    }

    @Test func readsEveryColumn() throws {
        let path = folder.write(
            Self.header + "\r\n"
                + "F7K2-Q9MD,lab test rig,2026-12-31,Dana Clerk,2026-11-01,ed8f58bebea1bf93\r\n"
                + " f7k2q9md-x ,,,,,\r\n",
            to: "acknowledged.csv")
        let contents = try AcknowledgementFile.read(path, name: "acknowledged.csv")
        #expect(
            contents.acknowledgements == [
                Self.first: Acknowledgement(
                    id: Self.first, note: "lab test rig", until: InventoryDate(year: 2026, month: 12, day: 31),
                    by: "Dana Clerk", acknowledgedOn: Self.day(1), evidence: "ed8f58bebea1bf93")
            ])
        #expect(
            contents.problems == [
                "acknowledged.csv line 3: \" f7k2q9md-x \" is not a finding id (ids look like F7K2-Q9MD); the row is "
                    + "ignored."
            ])
    }

    @Test func onlyTheIdIsRequired() throws {
        let path = folder.write("ID\nf7k2q9md\n 4et3-t8ag \n", to: "sheet.csv")
        let contents = try AcknowledgementFile.read(path, name: "the acknowledgements sheet")
        #expect(
            contents.acknowledgements == [
                Self.first: Acknowledgement(id: Self.first, note: ""),
                Self.second: Acknowledgement(id: Self.second, note: ""),
            ])
        #expect(contents.problems.isEmpty)
    }

    @Test func blanksAroundDatesAndEvidenceAreIgnored() throws {
        let path = folder.write(
            "id,until,acknowledged_on,evidence,note,by\n"
                + "LOLO-ABIO, 2026-11-30 , 2026-11-02 , ed8f58bebea1bf93 , a note , Sam \n",
            to: "acknowledged.csv")
        let contents = try AcknowledgementFile.read(path, name: "acknowledged.csv")
        let id = try #require(FindingID("1010-AB10"))
        #expect(
            contents.acknowledgements == [
                id: Acknowledgement(
                    id: id, note: " a note ", until: Self.day(30), by: " Sam ", acknowledgedOn: Self.day(2),
                    evidence: "ed8f58bebea1bf93")
            ])
    }

    @Test func aBadIdOrUntilLeavesTheRowOutAndSaysSo() throws {
        let path = folder.write(
            Self.header + "\n"
                + "F7K2-Q9MU,typo in the id,,,,\n"
                + "4ET3-T8AG,a bad date,2026-13-01,,,\n"
                + "MEBJ-H3NF,fine,,,,\n"
                + "MEBJ-H3N,too short,,,,\n"
                + "F7K2-Q9MD,us date,12/31/2026,,,\n"
                + "=cmd(),a formula,,,,\n",
            to: "acknowledged.csv")
        let contents = try AcknowledgementFile.read(path, name: "acknowledged.csv")
        #expect(contents.acknowledgements == [Self.third: Acknowledgement(id: Self.third, note: "fine")])
        #expect(
            contents.problems == [
                "acknowledged.csv line 2: \"F7K2-Q9MU\" is not a finding id (ids look like F7K2-Q9MD); the row is "
                    + "ignored.",
                "acknowledged.csv line 3: until \"2026-13-01\" is not a date as YYYY-MM-DD; the row is ignored.",
                "acknowledged.csv line 5: \"MEBJ-H3N\" is not a finding id (ids look like F7K2-Q9MD); the row is "
                    + "ignored.",
                "acknowledged.csv line 6: until \"12/31/2026\" is not a date as YYYY-MM-DD; the row is ignored.",
                "acknowledged.csv line 7: \"=cmd()\" is not a finding id (ids look like F7K2-Q9MD); the row is "
                    + "ignored.",
            ])
    }

    @Test func aLaterRowReplacesAnEarlierOne() throws {
        let path = folder.write(
            Self.header + "\n"
                + "F7K2-Q9MD,first word,2026-11-05,Dana,2026-11-01,aaaa\n"
                + "4ET3-T8AG,other,,,,\n"
                + "f7k2-q9md,second word,,Sam,2026-11-03,\n",
            to: "acknowledged.csv")
        let contents = try AcknowledgementFile.read(path, name: "acknowledged.csv")
        #expect(
            contents.acknowledgements == [
                Self.first: Acknowledgement(
                    id: Self.first, note: "second word", by: "Sam", acknowledgedOn: Self.day(3)),
                Self.second: Acknowledgement(id: Self.second, note: "other"),
            ])
        #expect(contents.problems.isEmpty)
    }

    @Test func aFileWithoutAnIdColumnIsAnError() {
        let path = folder.write("note,until\nlab,2026-11-01\n", to: "acknowledged.csv")
        let error = #expect(throws: StocktakeError.self) {
            try AcknowledgementFile.read(path, name: "acknowledged.csv")
        }
        #expect(error == .badData(path: path, reason: "it has no id column (its header must have id)."))
        #expect(error?.description == "\(path): it has no id column (its header must have id).")
    }

    // MARK: Adding

    @Test func addCreatesTheFileWithItsHeader() throws {
        let path = folder.path("acknowledged.csv")
        try AcknowledgementFile.add(
            [
                Acknowledgement(
                    id: Self.first, note: "lab test rig, \"west\"", until: Self.day(30), by: "Dana Clerk",
                    acknowledgedOn: Self.day(1), evidence: "ed8f58bebea1bf93")
            ], to: path)
        #expect(
            folder.read("acknowledged.csv")
                == Self.header + "\r\n"
                + "F7K2-Q9MD,\"lab test rig, \"\"west\"\"\",2026-11-30,Dana Clerk,2026-11-01,ed8f58bebea1bf93\r\n")
        #expect(folder.list() == ["acknowledged.csv"])
    }

    @Test func addReplacesTheSameIdAndKeepsTheOthers() throws {
        let path = folder.write(
            "id,note\n"
                + "f7k2q9md,old note\n"
                + "4ET3-T8AG,kept\n"
                + "not an id,kept as it was\n",
            to: "acknowledged.csv")
        try AcknowledgementFile.add(
            [
                Acknowledgement(id: Self.first, note: "new note", by: "Sam", acknowledgedOn: Self.day(4)),
                Acknowledgement(id: Self.third, note: "=formula"),
            ], to: path)
        #expect(
            folder.read("acknowledged.csv")
                == Self.header + "\r\n"
                + "4ET3-T8AG,kept,,,,\r\n"
                + "not an id,kept as it was,,,,\r\n"
                + "F7K2-Q9MD,new note,,Sam,2026-11-04,\r\n"
                + "MEBJ-H3NF,'=formula,,,,\r\n")
        let contents = try AcknowledgementFile.read(path, name: "acknowledged.csv")
        #expect(
            contents.acknowledgements == [
                Self.first: Acknowledgement(id: Self.first, note: "new note", by: "Sam", acknowledgedOn: Self.day(4)),
                Self.second: Acknowledgement(id: Self.second, note: "kept"),
                Self.third: Acknowledgement(id: Self.third, note: "=formula"),
            ])
        #expect(
            contents.problems == [
                "acknowledged.csv line 3: \"not an id\" is not a finding id (ids look like F7K2-Q9MD); the row is "
                    + "ignored."
            ])
    }

    @Test func addKeepsColumnsAClerkAddedByHand() throws {
        let path = folder.write("ID,Note,Ticket,\n4ET3-T8AG,kept,T-42,\n", to: "acknowledged.csv")
        try AcknowledgementFile.add([Acknowledgement(id: Self.first, note: "new")], to: path)
        #expect(
            folder.read("acknowledged.csv")
                == Self.header + ",Ticket\r\n"
                + "4ET3-T8AG,kept,,,,,T-42\r\n"
                + "F7K2-Q9MD,new,,,,,\r\n")
    }

    @Test func aBadAcknowledgedOnDateIsANoteAndTheAcknowledgementHolds() throws {
        let path = folder.write("id,note,acknowledged_on\nF7K2-Q9MD,lab,last week\n", to: "acknowledged.csv")
        let contents = try AcknowledgementFile.read(path, name: "acknowledged.csv")
        #expect(contents.acknowledgements == [Self.first: Acknowledgement(id: Self.first, note: "lab")])
        #expect(
            contents.problems == [
                "acknowledged.csv line 2: acknowledged_on \"last week\" is not a date as YYYY-MM-DD; the "
                    + "acknowledgement holds without it."
            ])
    }

    @Test func addToAFileWithoutAnIdColumnChangesNothing() {
        let path = folder.write("note\nlab\n", to: "acknowledged.csv")
        let error = #expect(throws: StocktakeError.self) {
            try AcknowledgementFile.add([Acknowledgement(id: Self.first, note: "x")], to: path)
        }
        #expect(error == .badData(path: path, reason: "it has no id column (its header must have id)."))
        #expect(folder.read("acknowledged.csv") == "note\nlab\n")
        #expect(folder.list() == ["acknowledged.csv"])
    }
}
