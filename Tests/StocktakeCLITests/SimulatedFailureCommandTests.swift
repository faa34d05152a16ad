import Foundation
import Testing

/// `stocktake run --simulate-failure KIND` and an account's `testFailureMode`: each kind fails as its real failure
/// does (the same sentence, after the label, and the same exit status), keeps the last good run, and sends nothing
/// to the server for the step it simulates.
@Suite struct SimulatedFailureCommandTests {
    let runner = CommandRunner()
    static let token = "st-rehearsal-5b4a/Zq+Xy="
    static let csv = "VT Tag,Serial\n100001,s1\n100002,s2\n"
    static let night = ["run", "--jobs", "Jobs", "--state", "state", "--as-of", "2026-11-20"]

    /// An honest server holding acme's central sheet, acme's account (reports uploaded to the same server), and a
    /// first good night that pushed nothing: `latest` is that night's run.
    func goodNight() throws -> (server: HostileServer, latest: String) {
        let server = try HostileServer(mode: "honest", csv: Self.csv, folder: runner.path("server"))
        try runner.remoteAccount(central: server.url, token: Self.token)
        runner.write(
            """
            {"central": {"provider": "https", "url": "\(server.url)"}, "sightings": ["scans/"],
             "auth": {"tokenFile": "secrets/token"},
             "push": {"cleaned": true, "report": "http://127.0.0.1:\(server.port)/reports/"}}
            """, to: "Jobs/acme/account.json")
        let first = try runner.run(Self.night + ["--no-push"])
        #expect(first.status == 0, "\(first.standardError)")
        return (server, try runner.latest("acme"))
    }

    /// Runs a night with `--simulate-failure kind` and checks what every simulated failure shares: the exit status
    /// of the real failure, no request to the server beyond `allowed`, the sheet on the server unchanged.
    func rehearse(
        _ kind: String, server: HostileServer, allowed: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandResult {
        let before = server.requests.count
        let result = try runner.run(Self.night + ["--simulate-failure", kind])
        #expect(result.status == 75, "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(
            server.requests.dropFirst(before).map { "\($0.method) \($0.path)" } == allowed,
            "nothing of the simulated step reached the server", sourceLocation: sourceLocation)
        #expect(server.sheetText == Self.csv, "the sheet on the server is unchanged", sourceLocation: sourceLocation)
        return result
    }

    @Test func aSimulatedPullFailsAsAnUnavailableServerAndSendsNothing() throws {
        let (server, latest) = try goodNight()
        let result = try rehearse("pull", server: server)
        let message =
            "(simulated failure: --simulate-failure pull) Account acme: \(server.url) is unavailable (503) and "
            + "stayed so after retries. Try again later."
        #expect(result.standardOutput == "0 of 1 account reconciled, 1 failed\nacme: FAILED: \(message)\n")
        #expect(result.standardError.contains("[acme] failed: \(message)\n"))
        #expect(try runner.latest("acme") == latest, "the last good run stays latest")
        #expect(runner.read("state/acme/pending-push.json") == nil)
    }

    @Test func aSimulatedPushKeepsTheOutputsAndIsPushedOnTheNextNight() throws {
        let (server, latest) = try goodNight()
        // The pull is real; the push (its check of the sheet and its PUT) is not made. The uploads are.
        let result = try rehearse(
            "push", server: server,
            allowed: ["GET /c.csv"] + Self.outputs.map { "PUT /reports/\($0)" })
        let message =
            "(simulated failure: --simulate-failure push) Account acme: \(server.url) is unavailable (503) and "
            + "stayed so after retries. The outputs are kept; the push is retried on the next run."
        let pending = try #require(runner.read("state/acme/pending-push.json"))
        let record = try #require(try JSONSerialization.jsonObject(with: Data(pending.utf8)) as? [String: Any])
        #expect(record["reason"] as? String == message)
        let since = try #require(record["since"] as? String)
        let run = try runner.latest("acme")
        #expect(run != latest, "the rehearsed night's outputs are kept and become latest")
        #expect(
            result.standardOutput
                == "1 of 1 account reconciled, 1 push pending\n"
                + "acme: 2 assets; 0 new, 2 open, 0 resolved findings; push pending since \(since): \(message); "
                + "report state/acme/\(run)/report.html\n")
        let runRecord = try #require(runner.read("state/acme/latest/run.json"))
        #expect(runRecord.contains("\"simulatedFailures\": [\"push\"]"))
        #expect(runRecord.contains("\"exitStatus\": 75"))
        let summary = try #require(runner.read("state/acme/latest/summary.txt"))
        #expect(
            summary.contains(
                "\nRehearsal: simulated failures push (--simulate-failure); nothing reached a server for them.\n"))
        #expect(summary.contains("\nPushed: central sheet NOT pushed: (simulated failure: --simulate-failure push) "))

        // The next night, without the rehearsal, pushes and clears the pending push.
        let next = try runner.run(Self.night)
        #expect(next.status == 0, "\(next.standardError)")
        #expect(
            next.standardOutput.contains(
                "; pushed: 2 cells changed, 0 rows added (was pending since \(since)); report"))
        #expect(runner.read("state/acme/pending-push.json") == nil)
        #expect(server.sheetText == "VT Tag,Serial\n100001,S1\n100002,S2\n")
        #expect(runner.read("state/acme/latest/run.json")?.contains("simulatedFailures") == false)
    }

    static let outputs = [
        "cleaned.csv", "discrepancies.csv", "resolved.csv", "cleaned.xlsx", "discrepancies.xlsx", "changes.csv",
        "report.html", "summary.txt", "ledger.csv", "run.json",
    ]

    @Test func aSimulatedUploadFailsAsAnUnavailableServerAndUploadsNothing() throws {
        let (server, latest) = try goodNight()
        let before = server.requests.count
        let result = try runner.run(Self.night + ["--simulate-failure", "upload"])
        #expect(result.status == 75)
        #expect(
            server.requests.dropFirst(before).map { "\($0.method) \($0.path)" }
                == ["GET /c.csv", "GET /c.csv", "PUT /c.csv"], "the pull and the push, no upload")
        let message =
            "(simulated failure: --simulate-failure upload) Account acme: http://127.0.0.1:\(server.port)/reports/"
            + "cleaned.csv is unavailable (503) and stayed so after retries. The outputs are kept; the push is "
            + "retried on the next run."
        let run = try runner.latest("acme")
        #expect(run != latest)
        #expect(result.standardOutput.hasPrefix("1 of 1 account reconciled, 1 push pending\nacme: 2 assets; "))
        #expect(result.standardOutput.contains(": \(message); report state/acme/\(run)/report.html\n"))
        #expect(result.standardError.contains("[acme] report upload failed: \(message)\n"))
        #expect(runner.read("state/acme/latest/run.json")?.contains("\"simulatedFailures\": [\"upload\"]") == true)
    }

    @Test func aSimulatedTokenFailureIsARejectedTokenAndSendsNothing() throws {
        let (server, latest) = try goodNight()
        let result = try rehearse("token", server: server)
        let message =
            "(simulated failure: --simulate-failure token) The token for account acme was rejected (401) by "
            + "\(server.url). Renew it in Jobs/acme/secrets/token."
        #expect(result.standardOutput == "0 of 1 account reconciled, 1 failed\nacme: FAILED: \(message)\n")
        #expect(try runner.latest("acme") == latest)
        #expect(!result.standardOutput.contains(Self.token) && !result.standardError.contains(Self.token))
    }

    @Test func aSimulatedTimeoutIsAStalledServerAndSendsNothing() throws {
        let (server, latest) = try goodNight()
        let result = try rehearse("timeout", server: server)
        let message =
            "(simulated failure: --simulate-failure timeout) Account acme: \(server.url) did not answer within 30 "
            + "seconds. Try again later, or raise the timeout."
        #expect(result.standardOutput == "0 of 1 account reconciled, 1 failed\nacme: FAILED: \(message)\n")
        #expect(try runner.latest("acme") == latest)
    }

    @Test func aSimulatedFullDiskFailsTheFirstOutputAndKeepsTheLastGoodRun() throws {
        let (server, latest) = try goodNight()
        let result = try rehearse("disk-full", server: server, allowed: ["GET /c.csv"])
        let runs = try FileManager.default.contentsOfDirectory(atPath: runner.path("state/acme/runs")).sorted()
        let failed = try #require(runs.last)
        let message =
            "(simulated failure: --simulate-failure disk-full) state/acme/runs/\(failed)/cleaned.csv: cannot write "
            + "it: the disk is full. Check that the folder exists, is writable and the disk is not full."
        #expect(result.standardOutput == "0 of 1 account reconciled, 1 failed\nacme: FAILED: \(message)\n")
        #expect(try runner.latest("acme") == latest)
        #expect(runner.read("state/acme/runs/\(failed)/run.json") == nil, "the failed run stays incomplete")
        let left = try FileManager.default.contentsOfDirectory(atPath: runner.path("state/acme/runs/\(failed)"))
        #expect(!left.contains { $0.hasSuffix(".partial") }, "no temporary file is left behind")
    }

    @Test func aSimulatedLockIsAnotherRunHoldingItAndSendsNothing() throws {
        let (server, latest) = try goodNight()
        let result = try rehearse("lock", server: server)
        #expect(
            result.standardOutput
                == "0 of 1 account reconciled, 1 failed\nacme: FAILED: skipped: (simulated failure: "
                + "--simulate-failure lock) another run holds its lock\n")
        #expect(
            result.standardError.contains(
                "[acme] skipped: (simulated failure: --simulate-failure lock) another run holds the lock on "
                    + "state/acme/lock\n"))
        #expect(try runner.latest("acme") == latest)
        // The rehearsal's own hold is gone: the next night takes the lock.
        #expect(try runner.run(Self.night).status == 0)
    }

    @Test func testFailureModeRehearsesOneAccountAndTheOthersRunNormally() throws {
        let (server, _) = try goodNight()
        runner.write(
            """
            {"central": {"provider": "https", "url": "\(server.url)"}, "sightings": ["scans/"],
             "auth": {"tokenFile": "secrets/token"}, "push": {"cleaned": true}, "testFailureMode": ["push"]}
            """, to: "Jobs/acme/account.json")
        runner.write("VT Tag,Serial\n200001,s9\n", to: "Jobs/beta/central.csv")
        runner.write("Tag,Serial\n200001,S9\n", to: "Jobs/beta/scans/a.csv")
        runner.write(
            #"{"central": "central.csv", "sightings": ["scans/"], "push": {"cleaned": true}}"#,
            to: "Jobs/beta/account.json")

        let before = server.requests.count
        let result = try runner.run(Self.night)

        #expect(result.status == 75)
        #expect(server.requests.dropFirst(before).map(\.method) == ["GET"], "acme pulled, pushed nothing")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "2 of 2 accounts reconciled, 1 push pending")
        #expect(
            lines.contains {
                $0.hasPrefix("acme: 2 assets; 0 new, 2 open, 0 resolved findings; push pending since ")
                    && $0.contains(": (simulated failure: testFailureMode push) Account acme: \(server.url) is ")
            })
        #expect(lines.contains { $0.hasPrefix("beta: 1 asset; 1 new, 0 open, 0 resolved findings; pushed: ") })
        #expect(runner.read("Jobs/beta/central.csv") == "VT Tag,Serial\n200001,S9\n", "beta pushed for real")
        #expect(runner.read("state/beta/latest/run.json")?.contains("simulatedFailures") == false)
        #expect(runner.read("state/acme/latest/run.json")?.contains("\"simulatedFailures\": [\"push\"]") == true)
    }

    @Test func anUnknownKindOnTheCommandLineIsABadUsage() throws {
        runner.write(#"{"central": "central.csv"}"#, to: "Jobs/acme/account.json")
        let result = try runner.run(Self.night + ["--simulate-failure", "push,disk_full"])
        #expect(result.status == 64)
        #expect(
            result.standardError
                == "stocktake: run: --simulate-failure takes pull, push, upload, token, timeout, disk-full, lock, "
                + "not \"disk_full\". See 'stocktake run --help'.\n")
        #expect(!FileManager.default.fileExists(atPath: runner.path("state")), "nothing ran")
    }

    @Test func anUnknownKindInTheAccountIsAConfigurationProblem() throws {
        runner.write("VT Tag\n100001\n", to: "Jobs/acme/central.csv")
        runner.write(#"{"central": "central.csv", "testFailureMode": ["push", "fire"]}"#, to: "Jobs/acme/account.json")
        let result = try runner.run(Self.night)
        #expect(result.status == 78)
        #expect(
            result.standardOutput
                == "0 of 1 account reconciled, 1 failed\nacme: FAILED: skipped: Account acme: \"testFailureMode\" "
                + "names \"fire\", which is not a failure stocktake can simulate. Use some of pull, push, upload, "
                + "token, timeout, disk-full, lock, or remove the key.\n")
    }

    @Test func reconcileTakesTheOptionButNotLock() throws {
        runner.write("VT Tag\n100001\n", to: "central.csv")
        let full = try runner.run(
            ["reconcile", "--central", "central.csv", "--out", "out", "--quiet", "--simulate-failure", "disk-full"])
        #expect(full.status == 73)
        #expect(
            full.standardError
                == "stocktake: (simulated failure: --simulate-failure disk-full) out/cleaned.csv: cannot "
                + "write it: the disk is full. Check that the folder exists, is writable and the disk is not full.\n")
        #expect(runner.read("out/cleaned.csv") == nil)
        let lock = try runner.run(
            ["reconcile", "--central", "central.csv", "--out", "out", "--simulate-failure", "lock"])
        #expect(lock.status == 64)
        #expect(
            lock.standardError
                == "stocktake: reconcile: --simulate-failure lock is for stocktake run: reconcile takes no account "
                + "lock. See 'stocktake reconcile --help'.\n")
    }
}
