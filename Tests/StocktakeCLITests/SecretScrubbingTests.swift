import Foundation
import Testing

/// `stocktake run` and `stocktake check` against a server that echoes the bearer token back in its error bodies:
/// the token must reach none of the cron mail (standard output), the logs, the state folder or the check's table.
@Suite struct SecretScrubbingTests {
    let runner = CommandRunner()
    /// A token with characters that percent-encoding changes, so both spellings are tried.
    static let token = "st-9f8e7d6c5b4a/Zq+Xy="
    /// A part of the token found in both its raw and its percent-encoded spelling.
    static let fragment = "9f8e7d6c5b4a"
    static let csv = "VT Tag,Serial\n100001,s1\n100002,s2\n"

    /// Account acme: its central sheet on `server` with a token file, pushed back after the run.
    func account(on server: HostileServer) throws {
        try runner.remoteAccount(central: server.url, token: Self.token)
    }

    func server(_ mode: String) throws -> HostileServer {
        try HostileServer(mode: mode, csv: Self.csv, folder: runner.path("server"))
    }

    func run() throws -> CommandResult {
        try runner.run(["run", "--jobs", "Jobs", "--state", "state", "--as-of", "2026-11-20"])
    }

    /// Fails for every place the token reached: the outputs of `results` and every file under `state/`.
    func expectNoToken(in results: [CommandResult], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for result in results {
            #expect(!result.standardOutput.contains(Self.fragment), "stdout", sourceLocation: sourceLocation)
            #expect(!result.standardError.contains(Self.fragment), "stderr", sourceLocation: sourceLocation)
        }
        let state = runner.path("state")
        let files = FileManager.default.enumerator(atPath: state)?.compactMap { $0 as? String } ?? []
        #expect(!files.isEmpty, sourceLocation: sourceLocation)
        for file in files {
            let text = runner.read("state/" + file) ?? ""
            #expect(!text.contains(Self.fragment), "the token reached state/\(file)", sourceLocation: sourceLocation)
        }
    }

    /// The token went to the server, so it had something to echo.
    func expectTokenSent(to server: HostileServer, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            server.requests.contains { $0.authorization == "Bearer \(Self.token)" }, sourceLocation: sourceLocation)
    }

    @Test func aTokenEchoedInA400TextNeverLeaves() throws {
        let server = try server("echo-400")
        try account(on: server)
        let run = try run()
        let check = try runner.run(["check", "--jobs", "Jobs"])
        let message =
            "Account acme: \(server.url) refused the pull (400): Bad request: the token [redacted] is not valid for "
            + "this sheet. Check the account's configuration for this URL."
        #expect(run.status == 75)
        #expect(run.standardOutput == "0 of 1 account reconciled, 1 failed\nacme: FAILED: \(message)\n")
        #expect(run.standardError.contains(" [acme] failed: \(message)\n"))
        #expect(check.status == 78)
        #expect(check.standardOutput.contains("acme     central         FAIL    \(message)\n"))
        expectTokenSent(to: server)
        try expectNoToken(in: [run, check])
    }

    @Test func aTokenEchoedInA401JSONMessageNeverLeaves() throws {
        let server = try server("echo-401")
        try account(on: server)
        let run = try run()
        let check = try runner.run(["check", "--jobs", "Jobs"])
        let message =
            "The token for account acme was rejected (401) by \(server.url): UNAUTHENTICATED: Request had invalid "
            + "credentials [redacted]. Renew it in Jobs/acme/secrets/token."
        #expect(run.status == 75)
        #expect(run.standardOutput == "0 of 1 account reconciled, 1 failed\nacme: FAILED: \(message)\n")
        #expect(run.standardError.contains(" [acme] failed: \(message)\n"))
        #expect(check.status == 78)
        #expect(check.standardOutput.contains("acme     central         FAIL    \(message)\n"))
        expectTokenSent(to: server)
        try expectNoToken(in: [run, check])
    }

    @Test func aTokenEchoedInA409OnThePushNeverLeaves() throws {
        let server = try server("echo-409")
        try account(on: server)
        let run = try run()
        let check = try runner.run(["check", "--jobs", "Jobs"])
        let message =
            "Account acme: \(server.url) refused the push (409): Conflict: Bearer [redacted] may not replace this "
            + "sheet (token=[redacted]). Check the account's configuration for this URL."
        #expect(run.status == 75)
        let pending = try #require(runner.read("state/acme/pending-push.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(pending.utf8)) as? [String: Any])
        #expect(object["reason"] as? String == message)
        let runID = try #require(object["runID"] as? String)
        // "since" is when the push first failed, as pending-push.json keeps it.
        let since = try #require(object["since"] as? String)
        #expect(since.count == "2026-11-24T03:10:39Z".count && since.hasSuffix("Z"))
        #expect(
            run.standardOutput
                == "1 of 1 account reconciled, 1 push pending\n"
                + "acme: 2 assets; 2 new, 0 open, 0 resolved findings; push pending since \(since): \(message); "
                + "report state/acme/runs/\(runID)/report.html\n")
        #expect(run.standardError.contains(" [acme] push failed: \(message)\n"))
        // summary.txt says it too, cut to its 200 characters.
        let pushed = "Pushed: central sheet NOT pushed: \(message)"
        let summary = try #require(runner.read("state/acme/latest/summary.txt"))
        #expect(
            summary.split(separator: "\n").contains {
                $0 == (pushed.count <= 200 ? pushed : String(pushed.prefix(199)) + "…")
            })
        #expect(runner.read("state/acme/latest/run.json")?.contains("\"exitStatus\": 75") == true)
        #expect(check.status == 0)
        #expect(server.requests.contains { $0.method == "PUT" && $0.authorization == "Bearer \(Self.token)" })
        #expect(server.sheetText == Self.csv, "the sheet on the server is unchanged")
        try expectNoToken(in: [run, check])
    }
}
