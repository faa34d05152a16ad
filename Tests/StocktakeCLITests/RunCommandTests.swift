import Foundation
import Testing

/// `stocktake run` as cron starts it.
struct RunCommandTests {
    let runner = CommandRunner()

    /// An account `name` whose central sheet has `rows` sighted tags.
    func account(_ name: String, rows: Int, firstTag: Int = 100_000) {
        var central = ["VT Tag,Serial,Description"]
        var scans = ["Tag,Serial"]
        for tag in firstTag..<(firstTag + rows) {
            central.append("\(tag),S\(tag),Wireless access point in a long description so rows take some time")
            scans.append("\(tag),S\(tag)")
        }
        runner.write(central.joined(separator: "\n") + "\n", to: "data/\(name)/central.csv")
        runner.write(scans.joined(separator: "\n") + "\n", to: "data/\(name)/scans/a.csv")
        runner.write(
            """
            {"central": {"provider": "file", "url": "../../data/\(name)/central.csv"},
             "sightings": ["../../data/\(name)/scans/"], "rules": {"cnsDigits": 6}}
            """, to: "Jobs/\(name)/account.json")
    }

    @Test func aNightlyRunPrintsOneLinePerAccount() throws {
        account("north", rows: 2)
        account("south", rows: 1, firstTag: 200_000)
        let result = try runner.run(["run", "--as-of", "2026-11-20", "--parallel", "2"])
        #expect(result.status == 0, "\(result.standardError)")
        // Warnings only (no CNS column): no summary follows.
        #expect(
            result.standardOutput == """
                2 of 2 accounts reconciled
                north: 2 assets; 2 new, 0 open, 0 resolved findings; no push; report state/north/\(try runner.latest("north"))/report.html
                south: 1 asset; 1 new, 0 open, 0 resolved findings; no push; report state/south/\(try runner.latest("south"))/report.html

                """)
        #expect(
            result.standardError.split(separator: "\n").allSatisfy {
                $0.contains(" [north] ") || $0.contains(" [south] ")
            })
        #expect(runner.read("state/north/latest/cleaned.csv")?.contains("100001") == true)
    }

    @Test func anAccountFolderNamedLikeAnOptionRunsInItsOwnProcess() throws {
        account("-h", rows: 1)
        let result = try runner.run(["run", "--as-of", "2026-11-20"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput == """
                1 of 1 account reconciled
                -h: 1 asset; 1 new, 0 open, 0 resolved findings; no push; report state/-h/\(try runner.latest("-h"))/report.html

                """)
    }

    @Test func aBrokenAccountEndsWith78AndTheOtherStillRuns() throws {
        account("good", rows: 1)
        runner.write(#"{"central": "nowhere.csv", "colour": "red"}"#, to: "Jobs/broken/account.json")
        let result = try runner.run(["run", "--as-of", "2026-11-20"])
        #expect(result.status == 78)
        #expect(
            result.standardOutput
                == "1 of 2 accounts reconciled, 1 failed\n"
                + "broken: FAILED: skipped: Account broken: \"colour\" is not a key stocktake knows. Remove it or check "
                + "its spelling; the keys are acknowledged, auth, buildings, central, columns, google, limits, name, "
                + "precedence, push, registers, report, rules, sightings, testFailureMode, timeZone.\n"
                + "good: 1 asset; 1 new, 0 open, 0 resolved findings; no push; "
                + "report state/good/\(try runner.latest("good"))/report.html\n")
        #expect(runner.read("state/good/latest/cleaned.csv") != nil)
    }

    @Test func aKilledRunLeavesThePreviousLatestIntact() throws {
        account("big", rows: 25_000)
        let first = try runner.run(["run", "--as-of", "2026-11-20"])
        #expect(first.status == 0, "\(first.standardError)")
        let before = try #require(runner.read("state/big/latest/cleaned.csv"))
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: runner.path("state/big/latest"))

        let executable = try #require(CommandRunner.executable)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["run", "--as-of", "2026-11-21", "--parallel", "1"]
        process.currentDirectoryURL = URL(fileURLWithPath: runner.folder)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill it once its run folder exists, while it is reading or writing.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline,
            ((try? FileManager.default.contentsOfDirectory(atPath: runner.path("state/big/runs"))) ?? []).count < 2
        {
            usleep(2_000)
        }
        usleep(50_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: runner.path("state/big/latest")) == link)
        #expect(runner.read("state/big/latest/cleaned.csv") == before)
        let again = try runner.run(["run", "--as-of", "2026-11-21"])
        #expect(again.status == 0, "the lock of the killed run is gone with its process")
    }

    @Test func shardsAndTheirEnvironment() throws {
        account("north", rows: 1)
        let bad = try runner.run(["run", "--shard", "3/3"])
        #expect(bad.status == 64)
        #expect(
            bad.standardError
                == "stocktake: run: --shard must be I/N with 0 ≤ I < N, not \"3/3\". See 'stocktake run --help'.\n")
        let missingIndex = try runner.run(["run", "--shard-count", "2"])
        #expect(missingIndex.status == 64)
        #expect(missingIndex.standardError.contains("a shard count needs JOB_COMPLETION_INDEX"))
    }

    @Test func aMissingJobsFolder() throws {
        let result = try runner.run(["run", "--jobs", "nowhere"])
        #expect(result.status == 66)
        #expect(result.standardError == "stocktake: nowhere: no such jobs folder. Check the path, or create it.\n")
    }

    @Test func anAccountNamedByAPathIsBadUsage() throws {
        account("acme", rows: 1)
        runner.write("{}", to: "outside/x/account.json")
        for name in ["../outside/x", "/etc"] {
            let result = try runner.run(["run", "--account", name, "--as-of", "2026-11-20"])
            #expect(result.status == 64)
            #expect(result.standardOutput.isEmpty)
            #expect(runner.read("state/acme/latest/cleaned.csv") == nil)
            #expect(result.standardError.hasPrefix("stocktake: run: --account \(name) is not an account name: it "))
        }
    }

    @Test func aCentralSheetCutToATenthEndsWith65ForItsAccountAnd75ForTheRun() throws {
        account("acme", rows: 40)
        account("other", rows: 1, firstTag: 200_000)
        #expect(try runner.run(["run", "--as-of", "2026-10-31"]).status == 0)
        // The baseline is dated by the day the good run started (its id, UTC), not by its --as-of.
        let id = Array(try FileManager.default.destinationOfSymbolicLink(atPath: runner.path("state/acme/latest")))
            .dropFirst("runs/".count)
        let day =
            String(id[id.startIndex..<id.startIndex + 4]) + "-" + String(id.dropFirst(4).prefix(2)) + "-"
            + String(id.dropFirst(6).prefix(2))
        let sheet = try #require(runner.read("data/acme/central.csv"))
        runner.write(sheet.split(separator: "\n").prefix(5).joined(separator: "\n") + "\n", to: "data/acme/central.csv")
        let result = try runner.run(["run", "--as-of", "2026-11-01"])
        #expect(result.status == 75)
        #expect(
            result.standardOutput
                == "1 of 2 accounts reconciled, 1 suspect\n"
                + "acme: SUSPECT: Account acme: the central sheet "
                + "Jobs/acme/../../data/acme/central.csv has 4 rows, 40 on \(day) (more than the 20 % rules.maxShrink "
                + "allows): not reconciled or pushed; check the sheet or run with --accept-shrink.\n"
                + "other: 1 asset; 0 new, 1 open, 0 resolved findings; no push; "
                + "report state/other/\(try runner.latest("other"))/report.html\n")
        let accepted = try runner.run(["run", "--as-of", "2026-11-01", "--accept-shrink", "--account", "acme"])
        #expect(accepted.status == 0, "the sightings still see 40 assets: 36 are unrecorded, 4 ok")
        // The 36 tags cut from the sheet are unrecorded (new errors); their 36 NO_CNS warnings are resolved.
        let run = try runner.latest("acme")
        let summary = try #require(runner.read("state/acme/\(run)/summary.txt"))
        #expect(
            accepted.standardOutput
                == "1 of 1 account reconciled\n"
                + "acme: 40 assets; 36 new, 4 open, 36 resolved findings; no push; report state/acme/\(run)/report.html\n"
                + "\n== acme: 36 new error findings ==\n" + summary)
        #expect(summary.split(separator: "\n").count == 15)
    }

    @Test func aRepeatedFlagAndAttachedValues() throws {
        account("north", rows: 1)
        account("south", rows: 1, firstTag: 200_000)
        let result = try runner.run(
            ["run", "--as-of=2026-11-20", "--no-push", "--account=north", "--no-push", "--account", "north"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput
                == "1 of 1 account reconciled\n"
                + "north: 1 asset; 1 new, 0 open, 0 resolved findings; no push; "
                + "report state/north/\(try runner.latest("north"))/report.html\n",
            "north runs once, south not at all")
    }
}
