import Foundation
import Testing

/// `stocktake run` pushing to a server that answers the PUT with a redirect to another port: the cleaned sheet must
/// not be sent there, and the push must stay pending rather than be reported as done.
@Suite struct PushRedirectTests {
    let runner = CommandRunner()
    static let token = "st-9f8e7d6c5b4a/Zq+Xy="
    static let csv = "VT Tag,Serial\n100001,s1\n100002,s2\n"

    @Test(arguments: [301, 302])
    func aPushRedirectedToAnotherPortIsRefusedAndStaysPending(status: Int) throws {
        let server = try HostileServer(mode: "redirect-\(status)", csv: Self.csv, folder: runner.path("server"))
        try runner.remoteAccount(central: server.url, token: Self.token)

        let result = try runner.run(["run", "--jobs", "Jobs", "--state", "state", "--as-of", "2026-11-20"])

        let elsewhere = "http://127.0.0.1:\(server.recorderPort)/stolen.csv"
        let message =
            "Account acme: \(server.url) redirected to another server (\(elsewhere)); stocktake does not send data "
            + "there. Check the address. The outputs are kept."
        #expect(result.status == 75)
        let pending = try #require(runner.read("state/acme/pending-push.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(pending.utf8)) as? [String: Any])
        #expect(object["reason"] as? String == message)
        #expect(object["target"] as? String == server.url)
        let runID = try #require(object["runID"] as? String)
        // "since" is when the push first failed, as pending-push.json keeps it.
        let since = try #require(object["since"] as? String)
        #expect(since.count == "2026-11-24T03:10:39Z".count && since.hasSuffix("Z"))
        #expect(
            result.standardOutput
                == "1 of 1 account reconciled, 1 push pending\n"
                + "acme: 2 assets; 2 new, 0 open, 0 resolved findings; push pending since \(since): \(message); "
                + "report state/acme/runs/\(runID)/report.html\n")
        #expect(!result.standardOutput.contains("; pushed"))
        // summary.txt says it too, cut to its 200 characters.
        let pushed = "Pushed: central sheet NOT pushed: \(message)"
        let summary = try #require(runner.read("state/acme/latest/summary.txt"))
        #expect(
            summary.split(separator: "\n").contains {
                $0 == (pushed.count <= 200 ? pushed : String(pushed.prefix(199)) + "…")
            })
        #expect(runner.read("state/acme/latest/run.json")?.contains("\"exitStatus\": 75") == true)
        let requests = server.requests
        #expect(requests.filter { $0.listener == "recorder" } == [], "nothing reached the other port")
        #expect(requests.map(\.method) == ["GET", "GET", "PUT"], "the pull, the check before the push, the push")
        #expect(server.sheetText == Self.csv, "the sheet on the server is unchanged")
    }
}
