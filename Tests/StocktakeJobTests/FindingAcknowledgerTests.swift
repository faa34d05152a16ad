import Foundation
import StocktakeCore
import Testing

@testable import StocktakeJob

/// `stocktake ack`'s library side: only findings that stand in the latest run are acknowledged, with their evidence,
/// and nothing is written otherwise.
@Suite("FindingAcknowledger", .serialized)
struct FindingAcknowledgerTests {
    let site = NightlyRunTests.Site()
    let today = InventoryDate(year: 2026, month: 11, day: 21)!
    static let missing = FindingID(code: .missing, key: "vt_tag=100001")
    static let conflict = FindingID(code: .fieldConflict, key: "vt_tag=100002|field=room")
    static let gone = FindingID(code: .noCNS, key: "vt_tag=100003")

    init() throws {
        site.write(#"{"central": {"provider": "file", "url": "central.csv"}}"#, to: "Jobs/acme/account.json")
        site.write("VT Tag\n100001\n", to: "Jobs/acme/central.csv")
        let seen = InventoryDate(year: 2026, month: 11, day: 20)!
        let entries = [
            LedgerEntry(
                id: Self.missing, code: .missing, key: "vt_tag=100001", firstSeen: seen, lastSeen: seen, state: .open,
                evidence: "00000000000000aa", vtTag: "100001"),
            LedgerEntry(
                id: Self.conflict, code: .fieldConflict, key: "vt_tag=100002|field=room", firstSeen: seen,
                lastSeen: seen, state: .new, evidence: "00000000000000bb", vtTag: "100002"),
            LedgerEntry(
                id: Self.gone, code: .noCNS, key: "vt_tag=100003", firstSeen: seen, lastSeen: seen, state: .resolved,
                resolvedOn: seen, evidence: "00000000000000cc", vtTag: "100003"),
        ]
        site.write(
            String(decoding: LedgerFile.bytes(entries), as: UTF8.self),
            to: "state/acme/runs/20261120T021500Z/ledger.csv")
        try FileManager.default.createSymbolicLink(
            atPath: site.state + "/acme/latest", withDestinationPath: "runs/20261120T021500Z")
    }

    var acknowledger: FindingAcknowledger { FindingAcknowledger(jobs: site.jobs, state: site.state) }

    @Test func recordsEachIdWithTonightsEvidence() throws {
        let recorded = try acknowledger.acknowledge(
            [Self.missing.description.lowercased(), Self.conflict.description], account: "acme",
            note: "known, see ticket 42", until: InventoryDate(year: 2027, month: 1, day: 31), by: "dana",
            today: today)
        #expect(recorded.map(\.1.code) == [.missing, .fieldConflict])
        #expect(
            site.read("Jobs/acme/acknowledged.csv")
                == "id,note,until,by,acknowledged_on,evidence\r\n"
                + "\(Self.missing),\"known, see ticket 42\",2027-01-31,dana,2026-11-21,00000000000000aa\r\n"
                + "\(Self.conflict),\"known, see ticket 42\",2027-01-31,dana,2026-11-21,00000000000000bb\r\n")
        // Acknowledging again replaces the row, it does not add one.
        try acknowledger.acknowledge(
            [Self.missing.description], account: "acme", note: "found", until: nil, by: "lee", today: today)
        let rows = try #require(site.read("Jobs/acme/acknowledged.csv")).split(separator: "\r\n")
        #expect(rows.count == 3)
        #expect(rows.last == "\(Self.missing),found,,lee,2026-11-21,00000000000000aa")
    }

    @Test func anIdThatIsNotOpenIsRefusedNamingTheClosestAndNothingIsWritten() throws {
        // One character off the conflict's id.
        var characters = Array(Self.conflict.description)
        characters[8] = characters[8] == "0" ? "1" : "0"
        let typed = String(characters)
        let typo = try #require(FindingID(typed))
        #expect(
            throws: AcknowledgementError.notOpen(
                account: "acme", id: typo, run: "20261120T021500Z", resolvedOn: nil,
                closest: [Self.conflict, Self.missing].sorted {
                    ($0.distance(to: typo), $0) < ($1.distance(to: typo), $1)
                })
        ) {
            try acknowledger.acknowledge(
                [Self.missing.description, typed], account: "acme", note: "x", until: nil, by: "dana", today: today)
        }
        #expect(site.read("Jobs/acme/acknowledged.csv") == nil)
        let error = AcknowledgementError.notOpen(
            account: "acme", id: typo, run: "20261120T021500Z", resolvedOn: nil, closest: [Self.conflict])
        #expect(
            error.description
                == "\(typed) is not a finding of account acme's latest run 20261120T021500Z; the closest open ids "
                + "are \(Self.conflict).")
        #expect(error.exitStatus == .usage)
    }

    @Test func aResolvedFindingIsNoLongerOpen() throws {
        #expect(throws: AcknowledgementError.self) {
            try acknowledger.acknowledge(
                [Self.gone.description], account: "acme", note: "x", until: nil, by: "dana", today: today)
        }
        let error = AcknowledgementError.notOpen(
            account: "acme", id: Self.gone, run: "20261120T021500Z",
            resolvedOn: InventoryDate(year: 2026, month: 11, day: 20), closest: [Self.missing])
        #expect(
            error.description
                == "\(Self.gone) is no longer open in account acme: it was resolved on 2026-11-20; the closest open "
                + "ids are \(Self.missing).")
    }

    @Test func textThatIsNoIdIsBadUsage() throws {
        #expect(throws: AcknowledgementError.notAnID(text: "F7K2")) {
            try acknowledger.acknowledge(["F7K2"], account: "acme", note: "x", until: nil, by: "dana", today: today)
        }
        #expect(
            AcknowledgementError.notAnID(text: "F7K2").description
                == "\"F7K2\" is not a finding id; ids look like F7K2-Q9MD (the id column of discrepancies.csv).")
    }

    @Test func anAccountKeepingItsAcknowledgementsOnAServerIsRefused() throws {
        site.write(
            #"{"central": {"provider": "file", "url": "central.csv"}, "acknowledged": "https://sheets.example.org/ack.csv"}"#,
            to: "Jobs/acme/account.json")
        let error = #expect(throws: AcknowledgementError.self) {
            try acknowledger.acknowledge(
                [Self.missing.description], account: "acme", note: "x", until: nil, by: "dana", today: today)
        }
        #expect(
            error?.description
                == "Account acme keeps its acknowledgements in the sheet https://sheets.example.org/ack.csv "
                + "(\"acknowledged\" in account.json); add a row there with the columns id,note,until,by.")
        #expect(error?.exitStatus == .configuration)
    }

    @Test func aLocalAcknowledgementsFileNamedByTheAccountIsWritten() throws {
        site.write(
            #"{"central": {"provider": "file", "url": "central.csv"}, "acknowledged": "shared/acks.csv"}"#,
            to: "Jobs/acme/account.json")
        site.write("id,note\n", to: "Jobs/acme/shared/acks.csv")
        try acknowledger.acknowledge(
            [Self.missing.description], account: "acme", note: "ok", until: nil, by: "dana", today: today)
        #expect(site.read("Jobs/acme/shared/acks.csv")?.contains("\(Self.missing),ok,,dana,2026-11-21,") == true)
        #expect(site.read("Jobs/acme/acknowledged.csv") == nil)
    }

    @Test func anAccountWithoutARunOrWithoutALedger() throws {
        site.write(#"{"central": {"provider": "file", "url": "central.csv"}}"#, to: "Jobs/beta/account.json")
        site.write("VT Tag\n1\n", to: "Jobs/beta/central.csv")
        #expect(throws: AcknowledgementError.noRun(account: "beta", state: site.state)) {
            try acknowledger.acknowledge(["F7K2-Q9MD"], account: "beta", note: "x", until: nil, by: "d", today: today)
        }
        site.write("cleaned", to: "state/beta/runs/20261101T021500Z/cleaned.csv")
        try FileManager.default.createSymbolicLink(
            atPath: site.state + "/beta/latest", withDestinationPath: "runs/20261101T021500Z")
        let error = #expect(throws: AcknowledgementError.self) {
            try acknowledger.acknowledge(["F7K2-Q9MD"], account: "beta", note: "x", until: nil, by: "d", today: today)
        }
        #expect(
            error?.description
                == "Account beta: its latest run 20261101T021500Z has no ledger.csv (it ran before findings had ids); "
                + "run stocktake run --account beta again first.")
        #expect(error?.exitStatus == .noInput)
    }
}
