import Foundation
import Testing

@testable import StocktakeCore

@Suite("LedgerFile: ledger.csv")
struct LedgerFileTests {
    let folder = TemporaryFolder()

    static func day(_ day: Int) -> InventoryDate { InventoryDate(year: 2026, month: 11, day: day)! }

    static let header =
        "id,code,key,first_seen,last_seen,state,resolved_on,evidence,acknowledged_evidence,pushed,vt_tag,cns_number,"
        + "serial_number,mac_address,field,value,expected,note"

    static let entries = [
        LedgerEntry(
            id: FindingID(code: .missing, key: "vt_tag=004513"), code: .missing, key: "vt_tag=004513",
            firstSeen: day(1), lastSeen: day(3), state: .open, evidence: "40bde14fe3c73e36", vtTag: "004513",
            cnsNumber: "C000124"),
        LedgerEntry(
            id: FindingID(code: .fieldConflict, key: "vt_tag=004512|field=room"), code: .fieldConflict,
            key: "vt_tag=004512|field=room", firstSeen: day(2), lastSeen: day(3), state: .acknowledged,
            evidence: "ed8f58bebea1bf93", acknowledgedEvidence: "ed8f58bebea1bf93", pushed: true, vtTag: "004512",
            serialNumber: "CNF123", macAddress: "aa:bb:cc:dd:ee:01", field: "room", value: "=1+1", expected: "-x",
            note: "Acknowledged on 2026-11-01 by Dana, \"the lab\" (a rig\nin room 5)."),
        LedgerEntry(
            id: FindingID(code: .invalidValue, key: "file=survey.csv|field=latitude|value=-5"), code: .invalidValue,
            key: "file=survey.csv|field=latitude|value=-5", firstSeen: day(1), lastSeen: day(1), state: .fixedByPush,
            resolvedOn: day(2), evidence: "0000000000000001", field: "latitude", value: "-5", expected: "@sum",
            note: "+plus"),
        LedgerEntry(
            id: FindingID(code: .noTag, key: ""), code: .noTag, key: "", firstSeen: day(1), lastSeen: day(1),
            state: .resolved, resolvedOn: day(3), evidence: "", value: "'quoted", expected: "'"),
    ]

    @Test func theHeaderIsTheDocumentedColumnOrder() {
        #expect(LedgerFile.columns.joined(separator: ",") == Self.header)
    }

    @Test func writesOneRowPerEntryWithTheFormulaGuard() {
        let text = String(decoding: LedgerFile.bytes(Array(Self.entries.prefix(3))), as: UTF8.self)
        let expected =
            Self.header + "\r\n"
            + "\(Self.entries[0].id),MISSING,vt_tag=004513,2026-11-01,2026-11-03,open,,40bde14fe3c73e36,,,004513,"
            + "C000124,,,,,,\r\n"
            + "\(Self.entries[1].id),FIELD_CONFLICT,vt_tag=004512|field=room,2026-11-02,2026-11-03,acknowledged,,"
            + "ed8f58bebea1bf93,ed8f58bebea1bf93,yes,004512,,CNF123,aa:bb:cc:dd:ee:01,room,'=1+1,'-x,"
            + "\"Acknowledged on 2026-11-01 by Dana, \"\"the lab\"\" (a rig\nin room 5).\"\r\n"
            + "\(Self.entries[2].id),INVALID_VALUE,file=survey.csv|field=latitude|value=-5,2026-11-01,2026-11-01,"
            + "fixed_by_push,2026-11-02,0000000000000001,,,,,,,latitude,-5,'@sum,'+plus\r\n"
        #expect(text == expected)
    }

    @Test func readsBackWhatItWrote() throws {
        let path = folder.write(LedgerFile.bytes(Self.entries), to: "ledger.csv")
        let read = try #require(try LedgerFile.read(path))
        #expect(read == Self.entries)
        #expect(read[1].value == "=1+1")
        #expect(read[1].expected == "-x")
        #expect(read[2].value == "-5")
        #expect(read[2].expected == "@sum")
        #expect(read[2].note == "+plus")
        #expect(read[3].value == "'quoted")
    }

    @Test func anEmptyLedgerIsAHeaderAndReadsBackEmpty() throws {
        let bytes = LedgerFile.bytes([])
        #expect(String(decoding: bytes, as: UTF8.self) == Self.header + "\r\n")
        let path = folder.write(bytes, to: "ledger.csv")
        #expect(try LedgerFile.read(path) == [])
    }

    @Test func noFileIsTheFirstNight() throws {
        #expect(try LedgerFile.read(folder.path("ledger.csv")) == nil)
    }

    @Test func columnsMayComeInAnyOrderAndCase() throws {
        let text =
            "NOTE,State,id,code,key,first_seen,last_seen,resolved_on,evidence,acknowledged_evidence,pushed,vt_tag,"
            + "cns_number,serial_number,mac_address,field,value,expected\n"
            + "a note,open,4ET3-T8AG,MISSING,vt_tag=004513,2026-11-01,2026-11-03,,40bde14fe3c73e36,,,004513,,,,,,\n"
        let path = folder.write(text, to: "ledger.csv")
        let read = try #require(try LedgerFile.read(path))
        #expect(
            read == [
                LedgerEntry(
                    id: Self.entries[0].id, code: .missing, key: "vt_tag=004513", firstSeen: Self.day(1),
                    lastSeen: Self.day(3), state: .open, evidence: "40bde14fe3c73e36", vtTag: "004513",
                    note: "a note")
            ])
    }

    // MARK: Broken files

    /// A ledger of one row: `row`'s cells over those of a good entry.
    func write(_ changes: [String: String], blankLineFirst: Bool = false) -> String {
        var cells = [
            "id": "4ET3-T8AG", "code": "MISSING", "key": "vt_tag=004513", "first_seen": "2026-11-01",
            "last_seen": "2026-11-03", "state": "open", "evidence": "40bde14fe3c73e36",
        ]
        cells.merge(changes) { $1 }
        let row = LedgerFile.columns.map { cells[$0] ?? "" }.joined(separator: ",")
        let good = "4ET3-T8AG,MISSING,vt_tag=004513,2026-11-01,2026-11-01,new,,,,,,,,,,,,"
        let text = Self.header + "\n" + good + "\n" + (blankLineFirst ? "\n" : "") + row + "\n"
        return folder.write(text, to: "ledger.csv")
    }

    static func broken(_ path: String, line: Int, _ problem: String) -> StocktakeError {
        .badData(
            path: path,
            reason: "line \(line) of the ledger cannot be read: \(problem). Restore the file from the run before, "
                + "or remove it to start the ledger again (every finding is then new).")
    }

    @Test func aBrokenLineIsNamedWithWhatIsWrongAndWhatToDo() {
        let cases: [([String: String], String)] = [
            (["id": "F7K2-Q9MU"], "\"F7K2-Q9MU\" is not a finding id"),
            (["id": ""], "\"\" is not a finding id"),
            (["code": "MISSNG"], "\"MISSNG\" is not a discrepancy code"),
            (["code": "missing"], "\"missing\" is not a discrepancy code"),
            (["state": "closed"], "\"closed\" is not a finding state"),
            (["first_seen": "2026-13-01"], "its first_seen \"2026-13-01\" is not a date as YYYY-MM-DD"),
            (["last_seen": "11/03/2026"], "its last_seen \"11/03/2026\" is not a date as YYYY-MM-DD"),
            (["resolved_on": "yesterday"], "its resolved_on \"yesterday\" is not a date as YYYY-MM-DD"),
            (["first_seen": ""], "it has no first_seen or last_seen date"),
            (["last_seen": ""], "it has no first_seen or last_seen date"),
        ]
        for (changes, problem) in cases {
            let path = write(changes)
            let error = #expect(throws: StocktakeError.self) { try LedgerFile.read(path) }
            #expect(error == Self.broken(path, line: 3, problem), "\(changes)")
        }
    }

    @Test func theUserReadsTheWholeSentence() {
        let path = write(["state": "closed"])
        let error = #expect(throws: StocktakeError.self) { try LedgerFile.read(path) }
        #expect(
            error?.description
                == "\(path): line 3 of the ledger cannot be read: \"closed\" is not a finding state. Restore the file "
                + "from the run before, or remove it to start the ledger again (every finding is then new).")
        #expect(error?.exitStatus == .dataError)
    }

    @Test func theLineCountsBlankLines() {
        let path = write(["code": "NOPE"], blankLineFirst: true)
        let error = #expect(throws: StocktakeError.self) { try LedgerFile.read(path) }
        #expect(error == Self.broken(path, line: 4, "\"NOPE\" is not a discrepancy code"))
    }

    @Test func aMissingColumnIsAnError() {
        let text = Self.header.replacingOccurrences(of: ",acknowledged_evidence,", with: ",") + "\n"
        let path = folder.write(text, to: "ledger.csv")
        let error = #expect(throws: StocktakeError.self) { try LedgerFile.read(path) }
        #expect(
            error
                == .badData(
                    path: path,
                    reason: "it has no acknowledged_evidence column (its header must have \(Self.header))."))
        let two = folder.write("id,code,key\n", to: "two.csv")
        let other = #expect(throws: StocktakeError.self) { try LedgerFile.read(two) }
        #expect(
            other?.description
                == "\(two): it has no first_seen, last_seen, state, resolved_on, evidence, acknowledged_evidence, "
                + "pushed, vt_tag, cns_number, serial_number, mac_address, field, value, expected, note column (its "
                + "header must have \(Self.header)).")
    }

    @Test func anEmptyFileHasNoColumns() {
        let path = folder.write("", to: "ledger.csv")
        let error = #expect(throws: StocktakeError.self) { try LedgerFile.read(path) }
        #expect(
            error
                == .badData(
                    path: path,
                    reason: "it has no \(LedgerFile.columns.joined(separator: ", ")) column (its header must have "
                        + "\(Self.header))."))
    }
}
