import Foundation
import StocktakeCore
import StocktakeSync
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
            // Serials in lower case: a push has canonical forms to write.
            write(
                "VT Tag,Serial\n" + tags.map { "\($0),s\($0)" }.joined(separator: "\n") + "\n",
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
        let run = try FileManager.default.destinationOfSymbolicLink(atPath: site.state + "/north/latest")
        #expect(
            outcomes[0].line
                == "north: 2 assets; 2 new, 0 open, 0 resolved findings; no push; report \(site.state)/north/\(run)/report.html"
        )
        #expect(outcomes[0].summary == "\(site.state)/north/\(run)/summary.txt")
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
        site.account("acme", tags: ["100001", "100002"], extra: #", "push": {"cleaned": true}"#)
        let sheet = try #require(site.read("data/acme/central.csv"))
        // The push cannot be recorded in the state folder (a folder stands where its journal goes), so it is not
        // made: it waits for the next run.
        let state = AccountState(root: site.state, account: AccountName("acme")!)
        try FileManager.default.createDirectory(atPath: state.pushJournalPath, withIntermediateDirectories: true)
        let first = NightlyRun.run(site.options())
        #expect(first.first?.status == .temporaryFailure)
        #expect(first.first?.push.hasPrefix("push pending since ") == true)
        let pending = try #require(state.pendingPush)
        #expect(pending.reason.hasPrefix("Account acme: could not write \(state.pushJournalPath): "))
        #expect(site.read("data/acme/central.csv") == sheet, "nothing pushed")
        // The state folder is mended; the next run pushes and clears the pending push.
        try FileManager.default.removeItem(atPath: state.pushJournalPath)
        let second = NightlyRun.run(site.options())
        #expect(second.first?.status == .success)
        #expect(second.first?.push.hasPrefix("pushed: 2 cells changed, 0 rows added (was pending since ") == true)
        #expect(state.pendingPush == nil)
        #expect(site.read("data/acme/central.csv") == "VT Tag,Serial\n100001,S100001\n100002,S100002\n")
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

@Suite("Nightly run: a night without evidence fails its account and pushes nothing", .serialized)
struct NightlyRunGuardTests {
    typealias Site = NightlyRunTests.Site

    /// `count` tags from 100001 on.
    static func tags(_ count: Int) -> [String] { (0..<count).map { String(100_001 + $0) } }

    static let push = #", "push": {"cleaned": true}"#

    func options(_ site: Site, day: Int) -> NightlyRunOptions {
        var options = site.options()
        options.asOf = InventoryDate(year: 2026, month: 10, day: day)!
        return options
    }

    @Test func aCentralSheetWithOnlyItsHeaderFailsTheAccountAndIsNotPushed() throws {
        let site = Site()
        site.account("acme", tags: Self.tags(30), extra: Self.push)
        site.write("VT Tag,Serial\n", to: "data/acme/central.csv")
        let outcomes = NightlyRun.run(options(site, day: 31))
        #expect(outcomes.first?.status == .dataError)
        #expect(
            outcomes.first?.push
                == "failed: Account acme: the central sheet \(site.root)/data/acme/central.csv has no rows, only a "
                + "header or nothing: not reconciled or pushed; check the sheet, or run with --accept-shrink if it is "
                + "really empty.")
        #expect(NightlyRun.exitStatus(outcomes) == .temporaryFailure)
        #expect(site.read("data/acme/central.csv") == "VT Tag,Serial\n")
        #expect(site.read("state/acme/latest/cleaned.csv") == nil)
    }

    @Test func aCentralSheetCutToATenthFailsAgainstTheLastGoodRunUntilAccepted() throws {
        let site = Site()
        site.account("acme", tags: Self.tags(40), extra: Self.push)
        let first = NightlyRun.run(options(site, day: 30))
        #expect(first.first?.status == .success, "\(first)")
        let state = AccountState(root: site.state, account: AccountName("acme")!)
        let good = try #require(state.latest)
        #expect(state.centralBaseline?.rows == 40)
        let day = try #require(RunFolder.date(ofID: good.id), "the day the good run started")

        // Tonight the sheet holds only its first 4 rows; the sightings still see all 40.
        let cut = "VT Tag,Serial\n" + Self.tags(4).map { "\($0),S\($0)\n" }.joined()
        site.write(cut, to: "data/acme/central.csv")
        let second = NightlyRun.run(options(site, day: 31))
        #expect(second.first?.status == .dataError)
        #expect(
            second.first?.push
                == "failed: Account acme: the central sheet \(site.root)/data/acme/central.csv has 4 rows, 40 on "
                + "\(day) (more than the 20 % rules.maxShrink allows): not reconciled or pushed; check the sheet or "
                + "run with --accept-shrink.")
        #expect(NightlyRun.exitStatus(second) == .temporaryFailure)
        #expect(site.read("data/acme/central.csv") == cut, "nothing pushed")
        #expect(state.latest == good, "the last good run stays the latest")
        #expect(state.pendingPush == nil)

        // The next night still compares with the last good run, not with the refused one.
        #expect(NightlyRun.run(options(site, day: 31)).first?.status == .dataError)

        // A deliberate cleanup: the sightings shrink too, and the clerk accepts it once.
        site.write("Tag,Serial\n" + Self.tags(4).map { "\($0),S\($0)\n" }.joined(), to: "data/acme/scans/a.csv")
        var accepted = options(site, day: 31)
        accepted.acceptShrink = true
        let third = NightlyRun.run(accepted)
        #expect(third.first?.status == .success, "\(third)")
        #expect(state.centralBaseline?.rows == 4, "the accepted sheet is the new baseline")
        #expect(NightlyRun.run(options(site, day: 31)).first?.status == .success, "--accept-shrink is one night only")
    }

    @Test func theBaselineIsTheLatestRunsPulledSheetWhateverItsDelimiter() throws {
        let site = Site()
        site.write("VT Tag\tSerial\n100001\ts100001\n100002\ts100002\n", to: "data/acme/central.tsv")
        site.write("Tag,Serial\n100001,S100001\n100002,S100002\n", to: "data/acme/scans/a.csv")
        site.write(
            #"{"central": "../../data/acme/central.tsv", "sightings": ["../../data/acme/scans/"]}"#,
            to: "Jobs/acme/account.json")
        let state = AccountState(root: site.state, account: AccountName("acme")!)
        #expect(state.centralBaseline == nil, "a first night has none")
        _ = NightlyRun.run(options(site, day: 30))
        let latest = try #require(state.latest)
        #expect(site.read("state/acme/latest/pulled/central.tsv") != nil)
        #expect(
            state.centralBaseline
                == CentralBaseline(rows: 2, date: try #require(RunFolder.date(ofID: latest.id)), runID: latest.id))
        // A dry run and a refused night never become the baseline.
        var dry = options(site, day: 31)
        dry.dryRun = true
        _ = NightlyRun.run(dry)
        #expect(state.centralBaseline?.runID == latest.id)
    }

    @Test func anEmptySightingsFolderFailsTheAccountNamingIt() throws {
        let site = Site()
        site.account("acme", tags: Self.tags(3), extra: Self.push)
        try FileManager.default.removeItem(atPath: site.root + "/data/acme/scans/a.csv")
        let outcomes = NightlyRun.run(options(site, day: 31))
        #expect(outcomes.first?.status == .dataError)
        #expect(
            outcomes.first?.push
                == "failed: Account acme: the sighting source \(site.root)/data/acme/scans/ holds no spreadsheet "
                + "(.csv, .tsv, .txt or .xlsx): not reconciled or pushed; check that the share is mounted and the sheets "
                + "are exported there.")
        #expect(site.read("data/acme/central.csv")?.hasPrefix("VT Tag,Serial\n") == true, "nothing pushed")
    }

    @Test func aNightWhereMostAssetsWentUnseenIsNotPushed() throws {
        let site = Site()
        site.account("acme", tags: Self.tags(10), extra: Self.push)
        site.write("Tag,Serial\n100001,S100001\n100002,S100002\n", to: "data/acme/scans/a.csv")
        let outcomes = NightlyRun.run(options(site, day: 31))
        #expect(outcomes.first?.status == .dataError)
        #expect(
            outcomes.first?.push
                == "failed: Account acme: 8 of 10 central assets (80 %) were seen by no sighting, more than the 50 % "
                + "rules.maxMissingShare allows: not pushed; check that every sighting source is complete.")
        #expect(site.read("data/acme/central.csv")?.hasPrefix("VT Tag,Serial\n") == true)
    }

    @Test func aPushCompletedJustBeforeAKillIsRecordedOnTheNextRun() throws {
        let site = Site()
        site.account("acme", tags: Self.tags(2), extra: Self.push)
        _ = NightlyRun.run(options(site, day: 29))
        let state = AccountState(root: site.state, account: AccountName("acme")!)
        let sheet = try #require(site.read("data/acme/central.csv"))
        #expect(sheet == "VT Tag,Serial\n100001,S100001\n100002,S100002\n", "the first night pushed")
        // The state a kill between the rename and the record leaves: the journal, and a push still pending.
        try state.recordPushJournal(
            PushIntent(
                runID: "20261030T021500Z", target: site.root + "/data/acme/central.csv",
                fingerprint: PushIntent.fingerprint(of: Array(sheet.utf8)), started: Date()))
        try state.recordPendingPush(
            PendingPush(
                since: Date(timeIntervalSince1970: 1_790_000_000), runID: "20261029T021500Z", target: "x",
                reason: "the server was unavailable"))
        let outcomes = NightlyRun.run(options(site, day: 30))
        #expect(outcomes.first?.status == .success)
        #expect(outcomes.first?.push == "up to date, nothing to push")
        #expect(state.pendingPush == nil)
        #expect(state.pushJournal == nil)
        #expect(
            site.read("state/acme/latest/summary.txt")?.contains(
                "cleaned.csv of run 20261030T021500Z → \(site.root)/data/acme/central.csv had completed before that "
                    + "run was stopped") == true)
    }

    @Test func aPushThatDidNotCompleteBeforeAKillStaysPendingUntilPushed() throws {
        let site = Site()
        site.account("acme", tags: Self.tags(2), extra: Self.push)
        let state = AccountState(root: site.state, account: AccountName("acme")!)
        try state.recordPushJournal(
            PushIntent(
                runID: "20261030T021500Z", target: site.root + "/data/acme/central.csv",
                fingerprint: "9-0123456789abcdef", started: Date()))
        var dry = options(site, day: 30)
        dry.dryRun = true
        _ = NightlyRun.run(dry)
        #expect(state.pushJournal != nil, "a dry run settles nothing")
        let outcomes = NightlyRun.run(options(site, day: 30))
        #expect(outcomes.first?.push == "pushed: 2 cells changed, 0 rows added")
        #expect(state.pushJournal == nil)
        #expect(site.read("data/acme/central.csv") == "VT Tag,Serial\n100001,S100001\n100002,S100002\n")
    }

    @Test func runFoldersLeftByKilledRunsAreRemovedAndNeverCountTowardKeepRuns() throws {
        let site = Site()
        site.account("acme", tags: Self.tags(1), extra: #", "rules": {"keepRuns": 5}"#)
        let state = AccountState(root: site.state, account: AccountName("acme")!)
        // 29 runs of earlier nights, 13 of them killed before their run.json: the audit's kill test.
        var killed: [String] = []
        for night in 0..<29 {
            let run = try state.newRun(startedAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(night) * 86_400))
            try "partial".write(toFile: run.path(of: "cleaned.csv"), atomically: false, encoding: .utf8)
            if night % 9 < 4 && killed.count < 13 {
                killed.append(run.id)
            } else {
                try "{}".write(toFile: run.path(of: "run.json"), atomically: false, encoding: .utf8)
            }
        }
        #expect(killed.count == 13)
        let outcomes = NightlyRun.run(options(site, day: 31))
        #expect(outcomes.first?.status == .success)
        let left = try state.runs().map(\.id)
        #expect(left.count == 5, "the newest five complete runs, tonight's included")
        #expect(Set(left).isDisjoint(with: killed))
        #expect(left.last == state.latest?.id)
    }

    @Test func anAccountFolderLinkedFromOutsideTheJobsFolderIsNotRun() throws {
        let site = Site()
        site.account("inside", tags: Self.tags(1))
        site.account("outside", tags: Self.tags(1))
        try FileManager.default.moveItem(atPath: site.jobs + "/outside", toPath: site.root + "/elsewhere")
        try FileManager.default.createSymbolicLink(
            atPath: site.jobs + "/outside", withDestinationPath: site.root + "/elsewhere")
        try FileManager.default.createSymbolicLink(
            atPath: site.jobs + "/alias", withDestinationPath: site.jobs + "/inside")
        let outcomes = NightlyRun.run(options(site, day: 31))
        #expect(outcomes.map(\.account) == ["alias", "inside", "outside"])
        #expect(outcomes.map(\.status) == [.success, .success, .configuration])
        #expect(
            outcomes[2].push
                == "skipped: Account outside: account.json is in \(site.jobs)/outside, a link to \(site.root)/elsewhere, "
                + "outside the jobs folder \(site.jobs), so it is not run. Move the account's folder into \(site.jobs) "
                + "instead of linking to it.")
        #expect(!FileManager.default.fileExists(atPath: site.state + "/outside"))
    }

    @Test func accountNamesThatArePathsAreNotRun() {
        let site = Site()
        site.account("acme", tags: Self.tags(1))
        var options = options(site, day: 31)
        options.accounts = ["../outside/x", "/etc"]
        let outcomes = NightlyRun.run(options)
        #expect(outcomes.map(\.status) == [.configuration, .configuration])
        #expect(
            outcomes.map(\.push) == [
                "skipped: Account ../outside/x: account.json cannot be read: the account name starts with a dot (hidden "
                    + "names and .. are not accounts). Name an account by its folder's name under \(site.jobs).",
                "skipped: Account /etc: account.json cannot be read: the account name contains a slash. Name an account "
                    + "by its folder's name under \(site.jobs).",
            ])
        #expect(!FileManager.default.fileExists(atPath: site.root + "/outside"))
    }
}

@Suite("Nightly run: a push edits the company's sheet the way a careful clerk would", .serialized)
struct NightlyRunWriteBackTests {
    @Test func theSheetKeepsItsLayoutAndEveryFindingComesBackTheNextNight() throws {
        let site = NightlyRunTests.Site()
        let sheet =
            "\u{FEFF}Asset Tag,CNS #,Bldg,Notes,Purchase Price\r\n"
            + "4512,c123,TORG,\"=HYPERLINK(\"\"https://wiki/4512\"\")\",\"$1,200.00\"\r\n"
            + "004513,C000124,NEWMAN,ceiling,900\r\n"
        site.write(sheet, to: "data/acme/central.csv")
        site.write("code,name\nTORG,Torgersen Hall\n", to: "data/acme/buildings.csv")
        site.write("Tag,Serial\n4512,S1\n4513,S2\n999001,S3\n", to: "data/acme/scans/a.csv")
        site.write(
            """
            {"central": "../../data/acme/central.csv", "sightings": ["../../data/acme/scans/"],
             "buildings": "../../data/acme/buildings.csv", "push": {"cleaned": true}}
            """, to: "Jobs/acme/account.json")
        var options = site.options()
        let first = NightlyRun.run(options)
        #expect(first.first?.push == "pushed: 2 cells changed, 0 rows added", "\(first)")
        // Bytes, not text: reading text would drop the byte-order mark.
        #expect(
            FileManager.default.contents(atPath: site.root + "/data/acme/central.csv").map { Array($0) }
                == Array(
                    ("\u{FEFF}Asset Tag,CNS #,Bldg,Notes,Purchase Price\r\n"
                        + "004512,C000123,TORG,\"=HYPERLINK(\"\"https://wiki/4512\"\")\",\"$1,200.00\"\r\n"
                        + "004513,C000124,NEWMAN,ceiling,900\r\n").utf8))
        #expect(
            site.read("state/acme/latest/changes.csv")
                == "row,vt_tag,column,before,after,reason\r\n1,004512,Asset Tag,4512,004512,normalized\r\n"
                + "1,004512,CNS #,c123,C000123,normalized\r\n")
        let findings = site.read("state/acme/latest/discrepancies.csv")?.split(separator: "\r\n").map {
            $0.split(separator: ",").first ?? ""
        }
        // The next night on the same inputs: nothing to change, and the same findings (the unrecorded tag and the
        // unknown building) come back: the push hid none of them.
        options.asOf = options.asOf.adding(days: 1)
        let second = NightlyRun.run(options)
        #expect(second.first?.push == "up to date, nothing to push")
        #expect(site.read("state/acme/latest/changes.csv") == "row,vt_tag,column,before,after,reason\r\n")
        let again = site.read("state/acme/latest/discrepancies.csv")?.split(separator: "\r\n").map {
            $0.split(separator: ",").first ?? ""
        }
        #expect(again == findings)
        #expect(findings?.contains("UNRECORDED") == true && findings?.contains("UNKNOWN_BUILDING") == true)
    }
}

/// A central sheet as LibreOffice saves it (`soffice --headless --convert-to csv`, Debian `libreoffice-calc-nogui`,
/// which `make test` installs): pushed, then read back.
@Suite("Nightly run: a push over a sheet LibreOffice saved", .serialized)
struct NightlyRunLibreOfficeTests {
    static let soffice = ["/usr/bin/soffice", "/usr/bin/libreoffice"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Every record of `bytes`, as parsed.
    static func records(_ bytes: [UInt8]) throws -> [[String]] {
        var reader = CSVReader(bytes: bytes, name: "central.csv")
        var rows: [[String]] = []
        try reader.forEachRecord { rows.append($0.strings) }
        return rows
    }

    @Test(.enabled(if: soffice != nil, "needs LibreOffice (Debian libreoffice-calc-nogui)"))
    func theHeaderAndUnmappedColumnsSurviveAndEveryChangeIsListed() throws {
        let site = NightlyRunTests.Site()
        let typed =
            "Asset Tag,CNS #,Bldg,Notes,Purchase Price,Link\n"
            + "4512,c123,TORG,\"ceiling, hall 2\",\"$1,200.00\",=HYPERLINK(\"https://wiki/4512\")\n"
            + "004513,C000124,NEWMAN,\"says \"\"spare\"\"\",900,\n"
            + "004514,,TORG,,,\n"
        site.write(typed, to: "typed/central.csv")
        let saved = site.root + "/saved"
        try FileManager.default.createDirectory(atPath: saved, withIntermediateDirectories: true)
        let convert = Process()
        convert.executableURL = URL(fileURLWithPath: Self.soffice!)
        convert.arguments = [
            "-env:UserInstallation=file://\(site.root)/lo-profile", "--headless", "--infilter=CSV:44,34,76,1",
            "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1", "--outdir", saved,
            site.root + "/typed/central.csv",
        ]
        convert.standardOutput = FileHandle.nullDevice
        convert.standardError = FileHandle.nullDevice
        try convert.run()
        convert.waitUntilExit()
        let before = try #require(FileManager.default.contents(atPath: saved + "/central.csv")).map { $0 }
        site.write(String(decoding: before, as: UTF8.self), to: "data/acme/central.csv")
        site.write("code,name\nTORG,Torgersen Hall\n", to: "data/acme/buildings.csv")
        site.write("Tag,CNS\n4512,C123\n4513,C124\n4514,C125\n", to: "data/acme/scans/a.csv")
        site.write(
            """
            {"central": "../../data/acme/central.csv", "sightings": ["../../data/acme/scans/"],
             "buildings": "../../data/acme/buildings.csv", "push": {"cleaned": true}}
            """, to: "Jobs/acme/account.json")
        var options = site.options()
        let first = NightlyRun.run(options)
        #expect(first.first?.push.hasPrefix("pushed: ") == true, "\(first)")
        let after = try #require(FileManager.default.contents(atPath: site.root + "/data/acme/central.csv")).map { $0 }
        // The header line is byte for byte the one LibreOffice wrote.
        let headerEnd = try #require(before.firstIndex(of: 0x0A))
        #expect(Array(after.prefix(headerEnd + 1)) == Array(before.prefix(headerEnd + 1)))
        let old = try Self.records(before)
        let new = try Self.records(after)
        #expect(new.count == old.count, "no row added or removed")
        #expect(new.first == old.first)
        let header = old[0]
        // Unmapped columns are equal row by row.
        for column in ["Notes", "Purchase Price", "Link"] {
            let index = try #require(header.firstIndex(of: column))
            #expect(old.map { $0.count > index ? $0[index] : "" } == new.map { $0.count > index ? $0[index] : "" })
        }
        // Every cell that differs is a row of changes.csv.
        let changes = try Self.records(Array(try #require(site.read("state/acme/latest/changes.csv")).utf8)).dropFirst()
        var differing: [String] = []
        for row in 1..<old.count {
            for column in header.indices
            where (old[row].count > column ? old[row][column] : "")
                != (new[row].count > column ? new[row][column] : "")
            {
                differing.append("\(row),\(header[column]),\(old[row][column]),\(new[row][column])")
            }
        }
        #expect(!differing.isEmpty)
        #expect(changes.map { "\($0[0]),\($0[2]),\($0[3]),\($0[4])" } == differing)
        // The next night changes nothing, byte for byte.
        options.asOf = options.asOf.adding(days: 1)
        #expect(NightlyRun.run(options).first?.push == "up to date, nothing to push")
        #expect(FileManager.default.contents(atPath: site.root + "/data/acme/central.csv").map { Array($0) } == after)
    }
}
