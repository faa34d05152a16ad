import Foundation
import StocktakeCore
import Testing

@testable import StocktakeJob

@Suite("Nightly run over Jobs/", .serialized)
struct NightlyRunTests {
    /// A temporary Jobs folder and state folder.
    final class Site {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("site-\(UUID().uuidString)").path
        var jobs: String { root + "/Jobs" }
        var state: String { root + "/state" }

        func write(_ text: String, to path: String) {
            let full = root + "/" + path
            try! FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try! text.write(toFile: full, atomically: true, encoding: .utf8)
        }

        func read(_ path: String) -> String? {
            try? String(contentsOfFile: root + "/" + path, encoding: .utf8)
        }

        /// An account whose central sheet holds `tags`, all sighted.
        func account(_ name: String, tags: [String], extra: String = "") {
            write(
                "VT Tag,Serial\n" + tags.map { "\($0),S\($0)" }.joined(separator: "\n") + "\n",
                to: "data/\(name)/central.csv")
            write(
                "Tag,Serial\n" + tags.map { "\($0),S\($0)" }.joined(separator: "\n") + "\n",
                to: "data/\(name)/scans/a.csv")
            write(
                """
                {"name": "\(name)", "central": {"provider": "file", "url": "../../data/\(name)/central.csv"},
                 "sightings": ["../../data/\(name)/scans/"]\(extra)}
                """, to: "Jobs/\(name)/account.json")
        }

        func options() -> NightlyRunOptions {
            var options = NightlyRunOptions()
            options.jobs = jobs
            options.state = state
            options.asOf = InventoryDate(year: 2026, month: 11, day: 20)!
            options.logs = false
            return options
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func twoAccountsRunInOneInvocationAndNeverMixData() throws {
        let site = Site()
        site.account("north", tags: ["100001", "100002"])
        site.account("south", tags: ["200001"])
        let outcomes = NightlyRun.run(site.options())
        #expect(outcomes.map(\.account) == ["north", "south"])
        #expect(outcomes.map(\.status) == [.success, .success])
        #expect(NightlyRun.exitStatus(outcomes) == .success)
        let north = try #require(site.read("state/north/latest/cleaned.csv"))
        let south = try #require(site.read("state/south/latest/cleaned.csv"))
        #expect(north.contains("100001") && !north.contains("200001"))
        #expect(site.read("state/north/latest/pulled/central.csv") == site.read("data/north/central.csv"))
        #expect(south.contains("200001") && !south.contains("100001"))
        #expect(
            outcomes[0].line.hasPrefix(
                "north: 2 assets, 0 errors, 2 warnings; no push; report \(site.state)/north/runs/"))
    }

    @Test func aBrokenAccountIsSkippedAndTheOtherStillRuns() throws {
        let site = Site()
        site.account("good", tags: ["100001"])
        site.write(#"{"central": "nowhere.csv"}"#, to: "Jobs/broken/account.json")
        let outcomes = NightlyRun.run(site.options())
        #expect(outcomes.map(\.status) == [.configuration, .success])
        #expect(outcomes[0].push.hasPrefix("skipped: Account broken: \"central\" names "))
        #expect(NightlyRun.exitStatus(outcomes) == .configuration)
        #expect(site.read("state/good/latest/cleaned.csv")?.contains("100001") == true)
    }

    @Test func aLockedAccountIsSkippedAndSaysSo() throws {
        let site = Site()
        site.account("busy", tags: ["100001"])
        let held = try AccountState(root: site.state, account: AccountName("busy")!).lock()
        #expect(held != nil)
        let outcomes = NightlyRun.run(site.options())
        #expect(outcomes.first?.status == .temporaryFailure)
        #expect(outcomes.first?.push == "skipped: another run holds its lock")
        #expect(site.read("state/busy/latest/cleaned.csv") == nil)
        held?.unlock()
        #expect(NightlyRun.run(site.options()).first?.status == .success)
    }

    @Test func aFailedPushIsPendingAndRetriedOnTheNextRun() throws {
        let site = Site()
        // The central sheet repeats a row: cleaning it would drop a third of its rows, beyond maxShrink 0.2.
        site.account("acme", tags: ["100001", "100001", "100002"], extra: #", "push": {"cleaned": true}"#)
        let first = NightlyRun.run(site.options())
        #expect(first.first?.status == .temporaryFailure)
        #expect(first.first?.push.hasPrefix("push pending since ") == true)
        let state = AccountState(root: site.state, account: AccountName("acme")!)
        let pending = try #require(state.pendingPush)
        #expect(pending.reason.contains("would shrink it from 3 to 2 rows"))
        #expect(site.read("data/acme/central.csv") == "VT Tag,Serial\n100001,S100001\n100001,S100001\n100002,S100002\n")
        // The clerk removes the repeated row; the next run pushes and clears the pending push.
        site.write("VT Tag,Serial\n100001,S100001\n100002,S100002\n", to: "data/acme/central.csv")
        let second = NightlyRun.run(site.options())
        #expect(second.first?.status == .success)
        #expect(second.first?.push.hasPrefix("pushed (was pending since ") == true)
        #expect(state.pendingPush == nil)
        #expect(site.read("data/acme/central.csv")?.hasPrefix("vt_tag,") == true)
    }

    @Test func theLatestRunSurvivesARunThatDiesMidway() throws {
        let site = Site()
        site.account("acme", tags: ["100001"])
        _ = NightlyRun.run(site.options())
        let state = AccountState(root: site.state, account: AccountName("acme")!)
        let before = try #require(state.latest)
        // A run that was killed after making its folder and writing part of a file never moves `latest`.
        let dead = try state.newRun(startedAt: Date().addingTimeInterval(60))
        try "vt_tag,cns".write(toFile: dead.path(of: "cleaned.csv"), atomically: false, encoding: .utf8)
        #expect(state.latest == before)
        #expect(site.read("state/acme/latest/cleaned.csv")?.contains("100001") == true)
    }

    @Test func shardsPartitionTheAccountsExactly() {
        let site = Site()
        let names = (1...40).map { "company-\($0)" }
        for name in names { site.write("{}", to: "Jobs/\(name)/account.json") }
        var seen: [String] = []
        for index in 0..<3 {
            var options = site.options()
            options.shard = Shard(index: index, count: 3)
            seen += NightlyRun.accounts(options)
        }
        #expect(seen.sorted() == names.sorted())
        #expect(Set(seen).count == seen.count)
        var one = site.options()
        one.shard = Shard(index: 0, count: 1)
        #expect(NightlyRun.accounts(one).count == 40)
    }

    @Test func namedAccountsOnly() {
        let site = Site()
        site.account("north", tags: ["100001"])
        site.account("south", tags: ["200001"])
        var options = site.options()
        options.accounts = ["south"]
        #expect(NightlyRun.run(options).map(\.account) == ["south"])
    }
}

@Suite("Nightly run: one account's token never reaches another's hosts", .serialized)
struct NightlyRunIsolationTests {
    /// An account whose central sheet is on `server`, with its own token file.
    static func account(_ name: String, token: String, server: TokenServer, site: NightlyRunTests.Site) throws {
        site.write(token + "\n", to: "Jobs/\(name)/secrets/token")
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: site.root + "/Jobs/\(name)/secrets/token")
        site.write(
            """
            {"name": "\(name)", "central": {"provider": "https", "url": "http://127.0.0.1:\(server.port)/\(name)/central.csv"},
             "auth": {"tokenFile": "secrets/token"}}
            """, to: "Jobs/\(name)/account.json")
    }

    @Test func parallelAccountsSendOnlyTheirOwnTokens() throws {
        let site = NightlyRunTests.Site()
        let north = try TokenServer(token: "north-token", csv: "VT Tag\n100001\n")
        let south = try TokenServer(token: "south-token", csv: "VT Tag\n200001\n")
        try Self.account("north", token: "north-token", server: north, site: site)
        try Self.account("south", token: "south-token", server: south, site: site)
        var options = site.options()
        options.parallel = 2
        let outcomes = NightlyRun.run(options)
        #expect(outcomes.map(\.status) == [.success, .success], "\(outcomes.map(\.push))")
        #expect(north.requests == ["/north/central.csv\tBearer north-token"])
        #expect(south.requests == ["/south/central.csv\tBearer south-token"])
        #expect(site.read("state/north/latest/cleaned.csv")?.contains("100001") == true)
        #expect(site.read("state/south/latest/cleaned.csv")?.contains("200001") == true)
    }

    @Test func aRejectedTokenFailsOnlyItsAccount() throws {
        let site = NightlyRunTests.Site()
        let server = try TokenServer(token: "the-right-token", csv: "VT Tag\n100001\n")
        try Self.account("wrong", token: "an-expired-token", server: server, site: site)
        site.account("fine", tags: ["300001"])
        let outcomes = NightlyRun.run(site.options())
        #expect(outcomes.map(\.account) == ["fine", "wrong"])
        #expect(outcomes[0].status == .success)
        #expect(outcomes[1].status == .noPermission)
        #expect(
            outcomes[1].push.hasPrefix(
                "failed: The token for account wrong was rejected (401) by http://127.0.0.1:\(server.port)/wrong/central.csv"
            ))
        #expect(!outcomes[1].push.contains("an-expired-token"))
        #expect(NightlyRun.exitStatus(outcomes) == .temporaryFailure)
        #expect(site.read("state/fine/latest/cleaned.csv")?.contains("300001") == true)
        #expect(site.read("state/wrong/latest") == nil)
    }
}
