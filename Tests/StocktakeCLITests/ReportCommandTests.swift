import Foundation
import Testing

/// `stocktake report`: the path of an account's report, and the sentences when there is none.
@Suite struct ReportCommandTests {
    let runner = CommandRunner()
    static let older = "20261119T021500Z"
    static let newer = "20261120T021500Z"

    /// Account acme with two runs, `latest` pointing at the newer; account beta with no run yet.
    init() throws {
        runner.write("{}", to: "Jobs/acme/account.json")
        runner.write("{}", to: "Jobs/beta/account.json")
        for run in [Self.older, Self.newer] {
            runner.write("<html>\(run)</html>", to: "state/acme/runs/\(run)/report.html")
        }
        try FileManager.default.createSymbolicLink(
            atPath: runner.path("state/acme/latest"), withDestinationPath: "runs/\(Self.newer)")
    }

    func report(_ run: String) -> String { runner.path("state/acme/runs/\(run)/report.html") }

    @Test func printsThePathOfTheLatestRunsReport() throws {
        let result = try runner.run(["report", "--account", "acme"])
        #expect(result.status == 0)
        #expect(result.standardOutput == report(Self.newer) + "\n")
        #expect(result.standardError == "")
    }

    @Test func runPicksAnOlderRun() throws {
        let result = try runner.run(["report", "--account", "acme", "--run", Self.older])
        #expect(result.status == 0)
        #expect(result.standardOutput == report(Self.older) + "\n")
    }

    @Test func anUnknownAccountNamesTheAccountsThereAre() throws {
        let result = try runner.run(["report", "--account", "acne"])
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "stocktake: There is no account acne in Jobs (the accounts are acme, beta); give an account "
                + "folder's name with --account, or the jobs folder with --jobs.\n")
    }

    @Test func anAccountWithoutARunSaysToRunItFirst() throws {
        let result = try runner.run(["report", "--account", "beta"])
        #expect(result.status == 66)
        #expect(
            result.standardError
                == "stocktake: Account beta has no run yet in state; run stocktake run --account beta first, or give "
                + "the state folder with --state.\n")
    }

    @Test func anUnknownRunIdNamesTheNewestRuns() throws {
        let result = try runner.run(["report", "--account", "acme", "--run", "20261121T021500Z"])
        #expect(result.status == 64)
        #expect(
            result.standardError
                == "stocktake: 20261121T021500Z is not a run of account acme; its newest runs are \(Self.newer), "
                + "\(Self.older). Give one of them with --run, or leave --run out for the latest run.\n")
    }

    @Test func aRunThatStoppedBeforeItsReportSaysSo() throws {
        try FileManager.default.removeItem(atPath: report(Self.older))
        let result = try runner.run(["report", "--account", "acme", "--run", Self.older])
        #expect(result.status == 66)
        #expect(
            result.standardError
                == "stocktake: Account acme: run \(Self.older) has no report.html (\(report(Self.older)) is missing: "
                + "the run stopped before writing it); run stocktake run --account acme again, or give another run "
                + "with --run.\n")
    }

    @Test func withoutAccountItIsAUsageError() throws {
        let result = try runner.run(["report"])
        #expect(result.status == 64)
        #expect(result.standardError == "stocktake: report: --account is required. See 'stocktake report --help'.\n")
    }
}
