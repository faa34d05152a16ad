import Foundation
import StocktakeCore
import StocktakeGenerator
import Testing

@testable import StocktakeJob

/// Findings across nights, through the nightly run as cron starts it: ids that survive a shuffle, new / open /
/// resolved, acknowledgements, `fixed_by_push`, and a ledger that only a good night changes.
@Suite("Findings across nights", .serialized)
struct NightlyRunLedgerTests {
    typealias Site = NightlyRunTests.Site

    /// The rows of a CSV file written by stocktake, by column name.
    static func table(_ text: String?) throws -> [[String: String]] {
        let text = try #require(text)
        var reader = CSVReader(bytes: Array(text.utf8), name: "table.csv")
        var header: [String]?
        var rows: [[String: String]] = []
        try reader.forEachRecord { record in
            guard let names = header else {
                header = record.strings
                return
            }
            rows.append(Dictionary(uniqueKeysWithValues: zip(names, record.strings)))
        }
        return rows
    }

    static func options(_ site: Site, day: Int) -> NightlyRunOptions {
        var options = site.options()
        options.asOf = InventoryDate(year: 2026, month: 11, day: day)!
        return options
    }

    /// Writes a file's data rows in reverse order, header first: the same rows, every row number changed.
    static func reverseRows(of path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        let header = lines.removeFirst()
        try ([header] + lines.reversed()).joined(separator: "\n").appending("\n").write(
            toFile: path, atomically: true, encoding: .utf8)
    }

    /// A generated account of 300 assets (seed 11) under `data/gen`, and its `Jobs/gen/account.json`.
    static func generatedAccount(_ site: Site) throws -> GeneratedAccount {
        let folder = URL(fileURLWithPath: site.root + "/data/gen")
        let generated = try AccountGenerator.generate(GeneratorOptions(assets: 300, seed: 11), into: folder)
        site.write(
            """
            {"name": "gen", "central": {"provider": "file", "url": "../../data/gen/central.csv"},
             "sightings": ["../../data/gen/sightings/"], "registers": ["../../data/gen/registers/"],
             "buildings": "../../data/gen/buildings.csv"}
            """, to: "Jobs/gen/account.json")
        return generated
    }

    @Test func threeNightsOnAGeneratedAccount() throws {
        let site = Site()
        let generated = try Self.generatedAccount(site)

        // Night 1: every finding is new, first seen tonight.
        let first = NightlyRun.run(Self.options(site, day: 20))
        #expect(first.map(\.status) == [.success])
        let night1 = try Self.table(site.read("state/gen/latest/discrepancies.csv"))
        #expect(night1.count > 20)
        #expect(night1.allSatisfy { $0["state"] == "new" && $0["first_seen"] == "2026-11-20" })
        #expect(Set(night1.map { $0["id"]! }).count == night1.count, "every finding has its own id")
        #expect(try Self.table(site.read("state/gen/latest/resolved.csv")).isEmpty)
        #expect(first[0].new == night1.count && first[0].open == 0 && first[0].resolved == 0)

        // Night 2: every file's rows reversed. The same ids, all open, first seen on night 1.
        for path in [generated.centralPath]
            + (try FileManager.default.subpathsOfDirectory(atPath: site.root + "/data/gen"))
            .filter({ $0.hasPrefix("sightings/") || $0.hasPrefix("registers/") })
            .map({ site.root + "/data/gen/" + $0 })
        {
            try Self.reverseRows(of: path)
        }
        let second = NightlyRun.run(Self.options(site, day: 20))
        #expect(second.map(\.status) == [.success])
        let night2 = try Self.table(site.read("state/gen/latest/discrepancies.csv"))
        #expect(Set(night2.map { $0["id"]! }) == Set(night1.map { $0["id"]! }))
        #expect(night2.allSatisfy { $0["state"] == "open" && $0["first_seen"] == "2026-11-20" })
        #expect(night2.map(\.["sources"]) != night1.map(\.["sources"]), "the rows did move")
        #expect(second[0].new == 0 && second[0].open == night1.count)

        // Night 3: one missing asset is scanned, and one SHARED_MAC finding is acknowledged.
        let missing = try #require(night2.first { $0["code"] == "MISSING" })
        let shared = try #require(night2.first { $0["code"] == "SHARED_MAC" })
        let survey = site.root + "/data/gen/sightings/found_tonight.csv"
        try "VT Tag,Room\n\(missing["vt_tag"]!),\n".write(toFile: survey, atomically: true, encoding: .utf8)
        try FindingAcknowledger(jobs: site.jobs, state: site.state).acknowledge(
            [shared["id"]!.lowercased()], account: "gen", note: "the lab's test rig shares its MAC", until: nil,
            by: "dana", today: InventoryDate(year: 2026, month: 11, day: 21)!)
        let third = NightlyRun.run(Self.options(site, day: 20))
        #expect(third.map(\.status) == [.success])
        let night3 = try Self.table(site.read("state/gen/latest/discrepancies.csv"))
        let resolved = try Self.table(site.read("state/gen/latest/resolved.csv"))
        #expect(
            resolved.map { [$0["id"]!, $0["code"]!, $0["vt_tag"]!, $0["state"]!] } == [
                [missing["id"]!, "MISSING", missing["vt_tag"]!, "resolved"]
            ])
        #expect(!night3.contains { $0["id"] == missing["id"] })
        let acknowledged = try #require(night3.first { $0["id"] == shared["id"] })
        #expect(acknowledged["state"] == "acknowledged")
        #expect(
            acknowledged["message"]!.hasSuffix(
                " Acknowledged on 2026-11-21 by dana (the lab's test rig shares its MAC)."))
        // Not counted: one error fewer for the acknowledgement, one for the asset found.
        #expect(third[0].errors == second[0].errors - 2)
        #expect(third[0].acknowledged == 1 && third[0].resolved == 1 && third[0].new == 0)
        let summary = try #require(site.read("state/gen/latest/summary.txt"))
        #expect(
            summary.contains("\nSince the last run: 0 new, \(night3.count - 1) open, 1 resolved, 1 acknowledged.\n"))
        let report = try #require(site.read("state/gen/latest/report.html"))
        #expect(report.contains("data-s=\"acknowledged\"><b>"))
        #expect(
            report.contains(
                "<dt>Since the last run</dt><dd>0 new, \(night3.count - 1) still open, 1 resolved, 1 acknowledged</dd>")
        )
        #expect(report.contains("<h2 id=\"resolved\">Resolved since the last run</h2>"))
    }

    /// An account whose central sheet and scans disagree on one asset's room, a FIELD_CONFLICT to acknowledge.
    static func conflictAccount(_ site: Site, scannedRoom: String) {
        site.write("VT Tag,Serial,Room\n100001,S1,101\n100002,S2,102\n", to: "data/acme/central.csv")
        site.write("Tag,Serial,Room\n100001,S1,\(scannedRoom)\n100002,S2,102\n", to: "data/acme/scans/a.csv")
        site.write(
            """
            {"name": "acme", "central": {"provider": "file", "url": "../../data/acme/central.csv"},
             "sightings": ["../../data/acme/scans/"]}
            """, to: "Jobs/acme/account.json")
    }

    static func conflict(_ site: Site) throws -> [String: String] {
        try #require(
            try table(site.read("state/acme/latest/discrepancies.csv")).first { $0["code"] == "FIELD_CONFLICT" })
    }

    @Test func anAcknowledgementReopensWhenItsEvidenceChanges() throws {
        let site = Site()
        Self.conflictAccount(site, scannedRoom: "111")
        _ = NightlyRun.run(Self.options(site, day: 20))
        let id = try Self.conflict(site)["id"]!
        try FindingAcknowledger(jobs: site.jobs, state: site.state).acknowledge(
            [id], account: "acme", note: "room being renumbered", until: nil, by: "dana",
            today: InventoryDate(year: 2026, month: 11, day: 20)!)
        _ = NightlyRun.run(Self.options(site, day: 21))
        #expect(try Self.conflict(site)["state"] == "acknowledged")

        // The scan now says another room: the same finding (same id), other evidence.
        Self.conflictAccount(site, scannedRoom: "222")
        let reopened = NightlyRun.run(Self.options(site, day: 22))
        let tonight = try Self.conflict(site)
        #expect(tonight["id"] == id)
        #expect(tonight["state"] == "new")
        #expect(tonight["first_seen"] == "2026-11-20")
        #expect(
            tonight["message"]!.hasSuffix(
                " Reopened: its evidence changed since it was acknowledged (acknowledged on 2026-11-20 by dana "
                    + "(room being renumbered))."))
        #expect(reopened[0].acknowledged == 0 && reopened[0].new == 1)
        _ = NightlyRun.run(Self.options(site, day: 23))
        #expect(try Self.conflict(site)["state"] == "open")
    }

    @Test func anAcknowledgementEndsAfterItsUntilDate() throws {
        let site = Site()
        Self.conflictAccount(site, scannedRoom: "111")
        _ = NightlyRun.run(Self.options(site, day: 20))
        let id = try Self.conflict(site)["id"]!
        try FindingAcknowledger(jobs: site.jobs, state: site.state).acknowledge(
            [id], account: "acme", note: "until the walk-through", until: InventoryDate(year: 2026, month: 11, day: 21),
            by: "dana", today: InventoryDate(year: 2026, month: 11, day: 20)!)
        _ = NightlyRun.run(Self.options(site, day: 21))
        #expect(try Self.conflict(site)["state"] == "acknowledged")
        _ = NightlyRun.run(Self.options(site, day: 22))
        let tonight = try Self.conflict(site)
        #expect(tonight["state"] == "new")
        #expect(tonight["message"]!.contains(" Reopened: the acknowledgement ran until 2026-11-21 (acknowledged on "))
    }

    @Test func aFindingThePushFixedIsFixedByPush() throws {
        let site = Site()
        site.write("VT Tag,Serial\n100001,S1\n", to: "data/acme/central.csv")
        site.write("Tag,Serial\n100001,S1\n100009,S9\n", to: "data/acme/scans/a.csv")
        site.write(
            """
            {"name": "acme", "central": {"provider": "file", "url": "../../data/acme/central.csv"},
             "sightings": ["../../data/acme/scans/"], "push": {"cleaned": true, "addUnrecorded": true}}
            """, to: "Jobs/acme/account.json")
        let first = NightlyRun.run(Self.options(site, day: 20))
        #expect(first[0].push == "pushed: 0 cells changed, 1 row added")
        let unrecorded = try #require(
            try Self.table(site.read("state/acme/latest/discrepancies.csv")).first { $0["code"] == "UNRECORDED" })
        #expect(site.read("data/acme/central.csv")?.contains("100009") == true)
        let second = NightlyRun.run(Self.options(site, day: 21))
        #expect(second[0].resolved == 1)
        #expect(
            site.read("state/acme/latest/report.html")?.contains(
                "<dt>Since the last run</dt><dd>1 new, 1 still open, 1 resolved (1 fixed by the push), 0 acknowledged</dd>"
            )
                == true)
        #expect(
            site.read("state/acme/latest/summary.txt")?.contains(
                "\nSince the last run: 1 new, 1 open, 1 resolved (1 fixed by the push), 0 acknowledged.\n") == true)
        let resolved = try Self.table(site.read("state/acme/latest/resolved.csv"))
        #expect(
            resolved.map { [$0["id"]!, $0["code"]!, $0["state"]!] } == [
                [unrecorded["id"]!, "UNRECORDED", "fixed_by_push"]
            ])
    }

    @Test func aSuspectOrFailedNightLeavesTheLedgerUntouched() throws {
        let site = Site()
        Self.conflictAccount(site, scannedRoom: "111")
        _ = NightlyRun.run(Self.options(site, day: 20))
        let ledger = try #require(site.read("state/acme/latest/ledger.csv"))
        // A night whose sightings folder is empty is refused: suspect, nothing written as latest.
        try FileManager.default.removeItem(atPath: site.root + "/data/acme/scans/a.csv")
        let suspect = NightlyRun.run(Self.options(site, day: 21))
        #expect(suspect[0].suspect && !suspect[0].isReconciled)
        #expect(suspect[0].line.hasPrefix("acme: SUSPECT: "))
        #expect(site.read("state/acme/latest/ledger.csv") == ledger)
        // A night whose configuration is broken fails; the ledger stays.
        site.write(#"{"central": "nowhere.csv"}"#, to: "Jobs/acme/account.json")
        let failed = NightlyRun.run(Self.options(site, day: 22))
        #expect(!failed[0].suspect && failed[0].line.hasPrefix("acme: FAILED: "))
        #expect(site.read("state/acme/latest/ledger.csv") == ledger)
        // The next good night holds its findings against the last good one: open, first seen on the 20th.
        Self.conflictAccount(site, scannedRoom: "111")
        _ = NightlyRun.run(Self.options(site, day: 23))
        let tonight = try Self.conflict(site)
        #expect(tonight["state"] == "open" && tonight["first_seen"] == "2026-11-20")
    }
}

@Suite("Findings across nights: an acknowledgements sheet on a server, report links", .serialized)
struct NightlyRunAcknowledgementSheetTests {
    typealias Site = NightlyRunTests.Site

    @Test func aSheetOnTheAccountsServerIsPulledWithItsTokenAndAcknowledges() throws {
        let site = Site()
        NightlyRunLedgerTests.conflictAccount(site, scannedRoom: "111")
        let id = FindingID(code: .fieldConflict, key: "vt_tag=100001|field=room")
        let server = try TokenServer(token: "acme-token", csv: "ID,Note,By\n\(id),room being renumbered,lee\n")
        site.write("acme-token\n", to: "Jobs/acme/secrets/token")
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: site.root + "/Jobs/acme/secrets/token")
        site.write(
            """
            {"name": "acme", "central": {"provider": "file", "url": "../../data/acme/central.csv"},
             "sightings": ["../../data/acme/scans/"], "auth": {"tokenFile": "secrets/token"},
             "acknowledged": "http://127.0.0.1:\(server.port)/acme/acknowledged.csv",
             "report": {"url": "https://intranet.example.org/stocktake/acme"}}
            """, to: "Jobs/acme/account.json")
        let outcomes = NightlyRun.run(NightlyRunLedgerTests.options(site, day: 20))
        #expect(outcomes.map(\.status) == [.success], "\(outcomes.map(\.push))")
        #expect(server.requests == ["/acme/acknowledged.csv\tBearer acme-token"])
        let conflict = try NightlyRunLedgerTests.conflict(site)
        #expect(conflict["id"] == id.description)
        #expect(conflict["state"] == "acknowledged")
        #expect(conflict["message"]!.hasSuffix(" Acknowledged by lee (room being renumbered)."))
        #expect(outcomes[0].acknowledged == 1)
        // The mail links the report under report.url instead of naming the server's path.
        let run = try #require(AccountState(root: site.state, account: AccountName("acme")!).latest)
        #expect(outcomes[0].report == "https://intranet.example.org/stocktake/acme/runs/\(run.id)/report.html")
        #expect(
            outcomes[0].line.hasSuffix(
                "; report https://intranet.example.org/stocktake/acme/runs/\(run.id)/report.html"))
    }

    @Test func aSheetThatRejectsTheTokenFailsTheNightAndKeepsTheLastGoodRun() throws {
        let site = Site()
        NightlyRunLedgerTests.conflictAccount(site, scannedRoom: "111")
        _ = NightlyRun.run(NightlyRunLedgerTests.options(site, day: 20))
        let ledger = try #require(site.read("state/acme/latest/ledger.csv"))
        let server = try TokenServer(token: "the-right-token", csv: "id,note\n")
        site.write("an-expired-token\n", to: "Jobs/acme/secrets/token")
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: site.root + "/Jobs/acme/secrets/token")
        site.write(
            """
            {"name": "acme", "central": {"provider": "file", "url": "../../data/acme/central.csv"},
             "sightings": ["../../data/acme/scans/"], "auth": {"tokenFile": "secrets/token"},
             "acknowledged": "http://127.0.0.1:\(server.port)/acme/acknowledged.csv"}
            """, to: "Jobs/acme/account.json")
        let outcomes = NightlyRun.run(NightlyRunLedgerTests.options(site, day: 21))
        #expect(outcomes.map(\.status) == [.noPermission])
        #expect(
            outcomes[0].line.hasPrefix(
                "acme: FAILED: The token for account acme was rejected (401) by "
                    + "http://127.0.0.1:\(server.port)/acme/acknowledged.csv"))
        #expect(!outcomes[0].line.contains("an-expired-token"))
        // Nothing of the failed night is the account's: its ledger stays that of the last good run.
        #expect(site.read("state/acme/latest/ledger.csv") == ledger)
    }
}
