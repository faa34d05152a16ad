import Foundation
import Testing

/// `stocktake reconcile` with pushes, uploads and credentials, against what needs no server: local files and
/// addresses on this machine where nothing listens.
struct ReconcileSyncCommandTests {
    let runner = CommandRunner()

    func account() -> [String] {
        runner.write("VT Tag,Serial\n1,S1\n2,S2\n", to: "acct/central.csv")
        runner.write("Tag,Serial\n1,S1\n", to: "acct/scans/north.csv")
        return [
            "reconcile", "--central", "acct/central.csv", "--sighting", "acct/scans", "--as-of", "2026-11-20",
            "--out", "out", "--quiet",
        ]
    }

    /// A loopback port nothing listens on: connections are refused at once.
    static let closedPort = "http://127.0.0.1:9"

    @Test func pushRewritesALocalCentralSheetAndKeepsTheSnapshot() throws {
        let result = try runner.run(account() + ["--push"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput.contains(
                "Pushed:        central sheet → acct/central.csv: 2 cells changed, 0 rows added\n"))
        #expect(runner.read("acct/central.csv") == "VT Tag,Serial\n000001,S1\n000002,S2\n", "the tags, padded")
        #expect(runner.read("out/pulled/central.csv") == "VT Tag,Serial\n1,S1\n2,S2\n")
        #expect(runner.read("out/run.json")?.contains("\"exitStatus\": 0") == true)
    }

    @Test func aSourceThatCannotBeFetchedEndsWith69AndWritesNothing() throws {
        let result = try runner.run(account() + ["--register", "\(Self.closedPort)/registers/tags.csv"])
        #expect(result.status == 69)
        #expect(
            result.standardError.hasPrefix(
                "stocktake: Account acct: http://127.0.0.1:9/registers/tags.csv could not be reached ("))
        #expect(result.standardError.hasSuffix("Check the address and the network, and try again later.\n"))
        #expect(runner.read("out/cleaned.csv") == nil)
    }

    @Test func aFailedReportUploadEndsWith75AndKeepsTheOutputs() throws {
        let result = try runner.run(account() + ["--report-to", "\(Self.closedPort)/reports/"])
        #expect(result.status == 75)
        #expect(result.standardError.hasPrefix("stocktake: Account acct: http://127.0.0.1:9/reports/"))
        #expect(result.standardError.hasSuffix(" The outputs are kept.\n"))
        #expect(runner.read("out/cleaned.csv")?.hasPrefix("vt_tag,") == true)
        #expect(runner.read("out/summary.txt")?.contains("reports NOT uploaded to http://127.0.0.1:9/reports/") == true)
        #expect(runner.read("out/run.json")?.contains("\"exitStatus\": 75") == true)
    }

    @Test func aTokenFileOthersCanReadIsRefusedWith77() throws {
        runner.write("s3cret-token-value\n", to: "secrets/token")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: runner.path("secrets/token"))
        let result = try runner.run(
            account() + ["--register", "\(Self.closedPort)/tags.csv", "--token-file", "secrets/token"])
        #expect(result.status == 77)
        #expect(
            result.standardError
                == "stocktake: Account acct: the secrets file secrets/token can be read by others (mode 644); "
                + "run chmod 600 secrets/token.\n")
        #expect(!result.standardError.contains("s3cret"))
    }

    @Test func theTokenNeverReachesTheOutputs() throws {
        runner.write("s3cret-token-value\n", to: "secrets/token")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: runner.path("secrets/token"))
        let result = try runner.run(
            account() + ["--report-to", "\(Self.closedPort)/reports/", "--token-file", "secrets/token"])
        #expect(result.status == 75)
        for file in ["cleaned.csv", "discrepancies.csv", "report.html", "summary.txt", "run.json"] {
            #expect(runner.read("out/" + file)?.contains("s3cret") == false, "the token leaked into \(file)")
        }
        #expect(!result.standardError.contains("s3cret") && !result.standardOutput.contains("s3cret"))
    }

    @Test func plainHTTPToAnotherMachineIsRefused() throws {
        let result = try runner.run(account() + ["--report-to", "http://files.example.org/reports/"])
        #expect(result.status == 64)
        #expect(
            result.standardError
                == "stocktake: reconcile: --report-to: http://files.example.org/reports/ uses plain http, which would "
                + "send credentials unencrypted. Use https:// (plain http is only allowed to this machine). "
                + "See 'stocktake reconcile --help'.\n")
    }
}
