import Foundation
import Testing

/// `stocktake reconcile --deadline S`: the most a sheet's transfer may take, retries included.
@Suite struct ReconcileDeadlineTests {
    let runner = CommandRunner()

    @Test func theUsageDescribesTheDeadline() throws {
        let result = try runner.run(["reconcile", "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("[--timeout S] [--deadline S] [--max-download-mb N]"))
        #expect(
            result.standardOutput.contains(
                "\n    --deadline S              Seconds for one sheet's transfer with all its retries (default 600).\n"
            ))
    }

    @Test(arguments: ["0", "soon"])
    func aDeadlineMustBeAWholeNumberOfSeconds(value: String) throws {
        let result = try runner.run(["reconcile", "--central", "c.csv", "--out", "o", "--deadline", value])
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "stocktake: reconcile: --deadline must be a whole number from 1 to 86400, not \"\(value)\". "
                + "See 'stocktake reconcile --help'.\n")
    }

    /// A server that stalls would cost four low-speed aborts of 30 seconds each; the deadline ends it after 2.
    @Test func aStalledCentralSheetIsGivenUpAtTheDeadline() throws {
        let server = try HostileServer(mode: "stall", csv: "", folder: runner.path("server"))
        let started = Date()
        let result = try runner.run([
            "reconcile", "--central", server.url, "--account", "acme", "--out", "out", "--quiet", "--deadline", "2",
        ])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 69)
        #expect(
            result.standardError
                == "stocktake: Account acme: \(server.url) did not finish within the deadline of 2 seconds (1 try "
                + "made). Try again later, or raise the deadline.\n")
        #expect(elapsed < 5, "gave up after \(elapsed) seconds")
        #expect(server.requests.map(\.method) == ["GET"])
        #expect(runner.read("out/cleaned.csv") == nil)
    }
}
