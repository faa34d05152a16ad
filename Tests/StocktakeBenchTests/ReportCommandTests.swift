import Foundation
import Testing

@testable import stocktake_bench

/// `stocktake-bench report`: options, usage errors, the printed measures, and whole runs of the built executables
/// on a small account (with Chromium, and with a Chromium that fails).
struct ReportCommandTests {
    let runner = BenchRunner()

    static let hasChromium = (try? PageRendering.chromium()) != nil

    @Test func defaultsAreFiftyThousandFindingsThreeRuns() throws {
        let command = try #require(try ReportCommand.parse([]))
        #expect(command.findings == 50_000 && command.runs == 3 && command.seed == 7 && command.data == nil)
        // 3,334 sets of injected discrepancies of about 16 findings, one per 25 assets.
        #expect(command.parameters.assets == 83_350 && command.parameters.assetsPerInjection == 25)
        #expect(command.parameters.folderName == "assets-83350-seed-7-tags-6-cns-6-as-of-2026-11-20-every-25")
        let chosen = try #require(
            try ReportCommand.parse(["--findings", "500", "--runs", "1", "--seed", "9", "--data", "d"]))
        #expect(chosen.findings == 500 && chosen.runs == 1 && chosen.seed == 9 && chosen.data == "d")
        #expect(try ReportCommand.parse(["--findings", "500", "--help"]) == nil)
    }

    @Test(arguments: [
        (["--findings"], "--findings needs a value; run 'stocktake-bench report --help'."),
        (["--findings", "99"], "--findings must be a whole number of at least 100, not '99'."),
        (["--runs", "0"], "--runs must be a whole number of at least 1, not '0'."),
        (["--seed", "x"], "--seed must be a whole number from 0 to 18446744073709551615, not 'x'."),
        (["--pages", "2"], "unknown option '--pages' for report; run 'stocktake-bench report --help'."),
    ])
    func mistakesAreUsageErrors(arguments: [String], message: String) throws {
        #expect(throws: UsageError.self) { try ReportCommand.parse(arguments) }
        let result = try runner.run(["report"] + arguments)
        #expect(result.status == 64)
        #expect(result.standardError == "stocktake-bench: \(message)\n")
        #expect(result.standardOutput == "")
    }

    @Test func theMeasuresAreJudgedAgainstTheLimits() {
        let rendering = PageRendering(seconds: [12.5, 3.25, 4.0], blankSeconds: 0.75)
        #expect(rendering.medianSeconds == 4.0)
        var benchmark = ReportBenchmark(
            dataFolder: "/data/x", assets: 83_350, requestedFindings: 50_000, findings: 52_101,
            reportBytes: 19_999_999, rendering: rendering)
        #expect(
            benchmark.text == """
                  data         /data/x
                  findings     52,101 (asked for at least 50,000) in 83,350 assets
                  report.html  20.0 MB (19,999,999 bytes)
                  render       4.00 s median of 3 (12.50 s, 3.25 s, 4.00 s), 'chromium --headless --screenshot' from start to exit
                  blank page   0.75 s (Chromium's own start and exit)
                  size limit   under 20.0 MB: met
                  time limit   under 10.00 s: met
                """)
        benchmark.reportBytes = 20_000_000
        benchmark.rendering.seconds = [10, 11, 12]
        #expect(RunCommandTests.metric("size limit", in: benchmark.text) == "under 20.0 MB: NOT met")
        #expect(RunCommandTests.metric("time limit", in: benchmark.text) == "under 10.00 s: NOT met")
    }

    /// The whole command on a small account: generated with dense injections, reconciled, rendered; `--data`
    /// keeps the account for the next run.
    @Test(.enabled(if: hasChromium, "chromium is not installed"))
    func aSmallAccountsReportIsMeasured() throws {
        let data = runner.path("data")
        let result = try runner.run(["report", "--findings", "200", "--runs", "1", "--data", data])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            RunCommandTests.labels(in: result.standardOutput) == [
                "data", "findings", "report.html", "render", "blank", "size", "time",
            ])
        let findings = try #require(RunCommandTests.metric("findings", in: result.standardOutput))
        let count = try #require(Int(findings.prefix { $0 != " " }.filter(\.isNumber)))
        #expect(count >= 200, "\(findings)")
        #expect(RunCommandTests.metric("size limit", in: result.standardOutput) == "under 20.0 MB: met")
        #expect(result.standardError.contains("one set of injected discrepancies per 25 assets"))
        let second = try runner.run(["report", "--findings", "200", "--runs", "1", "--data", data])
        #expect(second.status == 0)
        #expect(!second.standardError.contains("generating"), "the kept account is reused")
    }

    /// A Chromium that cannot render the report: the benchmark exits 1 and says why, quoting Chromium.
    @Test func aReportThatCannotBeRenderedExitsOne() throws {
        try runner.script("bin/chromium", "echo 'cannot open display' >&2\nexit 3\n")
        let path = runner.path("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try runner.run(
            ["report", "--findings", "100", "--runs", "1"], environment: ["PATH": path])
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError.hasSuffix(
                """
                stocktake-bench: chromium --headless --screenshot exited with status 3, so there is nothing to \
                measure; its last messages:
                  cannot open display

                """))
    }
}
