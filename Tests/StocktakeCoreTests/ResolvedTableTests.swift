import Testing

@testable import StocktakeCore

@Suite("ResolvedTable: resolved.csv")
struct ResolvedTableTests {
    let folder = TemporaryFolder()

    static let header =
        "id,code,severity,vt_tag,cns_number,serial_number,mac_address,field,value,expected,first_seen,last_seen,state"

    static func day(_ day: Int) -> InventoryDate { InventoryDate(year: 2026, month: 11, day: day)! }

    static let missing = Discrepancy(
        code: .missing, vtTag: VTTag(number: 4513, digits: 6), cnsNumber: CNSNumber(number: 124, digits: 6),
        sources: [SourceLocation(file: "central.csv", row: 2)], message: "Missing.")
    static let conflict = Discrepancy(
        code: .fieldConflict, vtTag: VTTag(number: 4512, digits: 6), serialNumber: SerialNumber(canonical: "CNF123"),
        macAddress: MACAddress(value: 0xaabb_ccdd_ee01), field: .room, value: "-x", expected: "=1+1",
        sources: [SourceLocation(file: "survey.csv", row: 1)], message: "Conflict.")
    static let duplicate = Discrepancy(
        code: .duplicateRow, vtTag: VTTag(number: 4600, digits: 6), value: "row 3",
        sources: [SourceLocation(file: "survey.csv", row: 4)], message: "Duplicate.")

    /// Three findings on November 1; on November 4 only the duplicate row stands, the missing asset was pushed.
    static func reconciliation() -> Reconciliation {
        var first = FindingLedger(findings: [missing, conflict, duplicate], previous: nil, asOf: day(1))
        first.markPushed(tagNumbers: [4513])
        var tonight = Reconciliation(assets: [], discrepancies: [duplicate], inputs: [], asOf: day(4))
        tonight.ledger = FindingLedger(findings: [duplicate], previous: first.entries, asOf: day(4))
        return tonight
    }

    @Test func theHeaderIsTheDocumentedColumnOrder() {
        #expect(ResolvedTable.columns.joined(separator: ",") == Self.header)
    }

    @Test func oneRowsCells() {
        let entry = LedgerEntry(
            id: FindingID("F7K2-Q9MD")!, code: .sharedMAC, key: "mac_address=aa:bb:cc:dd:ee:01",
            firstSeen: Self.day(1), lastSeen: Self.day(3), state: .fixedByPush, resolvedOn: Self.day(4),
            evidence: "ed8f58bebea1bf93", acknowledgedEvidence: "x", vtTag: "004600", cnsNumber: "C000001",
            serialNumber: "SN1", macAddress: "aa:bb:cc:dd:ee:01", field: "mac_address", value: "v", expected: "e",
            note: "not written")
        #expect(
            ResolvedTable.row(entry) == [
                "F7K2-Q9MD", "SHARED_MAC", "error", "004600", "C000001", "SN1", "aa:bb:cc:dd:ee:01", "mac_address", "v",
                "e", "2026-11-01", "2026-11-03", "fixed_by_push",
            ])
    }

    @Test func listsTheFindingsGoneSinceTheLastRun() {
        let text = String(decoding: ResolvedTable.csv(Self.reconciliation()), as: UTF8.self)
        let missingID = FindingID(code: .missing, key: "vt_tag=004513")
        let conflictID = FindingID(code: .fieldConflict, key: "vt_tag=004512|field=room")
        #expect(missingID.description == "4ET3-T8AG")
        #expect(conflictID.description == "M7JM-T6YR")
        #expect(
            text
                == Self.header + "\r\n"
                + "4ET3-T8AG,MISSING,error,004513,C000124,,,,,,2026-11-01,2026-11-01,fixed_by_push\r\n"
                + "M7JM-T6YR,FIELD_CONFLICT,warning,004512,,CNF123,aa:bb:cc:dd:ee:01,room,'-x,'=1+1,2026-11-01,"
                + "2026-11-01,resolved\r\n")
    }

    @Test func onlyTheHeaderWhenNothingIsGone() {
        let reconciliation = Reconciliation(assets: [], discrepancies: [], inputs: [], asOf: Self.day(1))
        #expect(String(decoding: ResolvedTable.csv(reconciliation), as: UTF8.self) == Self.header + "\r\n")
    }

    @Test func writesTheFile() throws {
        let path = folder.path("resolved.csv")
        try PieceWriter.write([ResolvedTable.writer(Self.reconciliation(), to: path)])
        #expect(
            folder.read("resolved.csv") == String(decoding: ResolvedTable.csv(Self.reconciliation()), as: UTF8.self))
        #expect(folder.list() == ["resolved.csv"])
    }
}
