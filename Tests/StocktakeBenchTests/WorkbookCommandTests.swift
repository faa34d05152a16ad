import Foundation
import Testing

@testable import stocktake_bench

/// `stocktake-bench workbook`: options, usage errors, and a whole run of the built executables on a small sheet.
struct WorkbookCommandTests {
    let runner = BenchRunner()

    static let hasXlsxWriter = (try? WorkbookProducer.python()) != nil

    @Test func defaultsAreTwoHundredThousandRowsThreeRuns() throws {
        let command = try #require(try WorkbookCommand.parse([]))
        #expect(command.rows == 200_000 && command.runs == 3 && command.seed == 7 && command.data == nil)
        let chosen = try #require(
            try WorkbookCommand.parse(["--rows", "5000", "--runs", "1", "--seed", "9", "--data", "d"]))
        #expect(chosen.rows == 5000 && chosen.runs == 1 && chosen.seed == 9 && chosen.data == "d")
        #expect(try WorkbookCommand.parse(["--rows", "5000", "--help"]) == nil)
    }

    @Test(arguments: [
        (["--rows"], "--rows needs a value; run 'stocktake-bench workbook --help'."),
        (["--rows", "99"], "--rows must be a whole number of at least 100, not '99'."),
        (["--runs", "0"], "--runs must be a whole number of at least 1, not '0'."),
        (["--seed", "-1"], "--seed must be a whole number from 0 to 18446744073709551615, not '-1'."),
        (["--sheets", "2"], "unknown option '--sheets' for workbook; run 'stocktake-bench workbook --help'."),
    ])
    func mistakesAreUsageErrors(arguments: [String], message: String) throws {
        #expect(throws: UsageError.self) { try WorkbookCommand.parse(arguments) }
        let result = try runner.run(["workbook"] + arguments)
        #expect(result.status == 64)
        #expect(result.standardError == "stocktake-bench: \(message)\n")
    }

    @Test func readingsThatDifferAreNamed() {
        let measurement = ProcessMeasurement(wallSeconds: 1, userSeconds: 1, systemSeconds: 0, peakResidentBytes: 1)
        let csv = WorkbookReading(
            measurement: measurement, rows: 10, mapping: ["VT Tag": "vt_tag"], unmapped: [],
            problems: ["row 2: a", "row 3: b"])
        #expect(csv.differences(from: csv).isEmpty)
        var xlsx = csv
        xlsx.rows = 9
        xlsx.problems = ["row 2: a", "row 3: c"]
        #expect(
            xlsx.differences(from: csv) == [
                "rows: 9 against 10", "problems: 2 against 2; first differing: \"row 3: c\" against \"row 3: b\"",
            ])
        let benchmark = WorkbookBenchmark(
            workbook: "/data/central.xlsx", workbookBytes: 2_000_000, unzippedBytes: 10_000_000, runs: 3, csv: csv,
            xlsx: xlsx)
        #expect(!benchmark.agrees)
        #expect(RunCommandTests.metric("read alike", in: benchmark.text) == "NO")
        #expect(RunCommandTests.notes(in: benchmark.text) == xlsx.differences(from: csv))
        #expect(RunCommandTests.metric("target", in: benchmark.text) == "under 2.00 s for the .xlsx: met")
    }

    /// The whole command on a small sheet: XlsxWriter writes the workbook once, `--data` keeps it, and both
    /// readings agree (a tag stored as a number, a date cell read as the CSV's text is).
    @Test(.enabled(if: hasXlsxWriter, "python3-xlsxwriter is not installed"))
    func aSmallSheetIsReadAlikeAsWorkbookAndCSV() throws {
        let data = runner.path("data")
        let first = try runner.run(["workbook", "--rows", "500", "--runs", "1", "--data", data])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardError.contains("saving central.csv as central.xlsx with XlsxWriter"))
        #expect(
            RunCommandTests.labels(in: first.standardOutput) == [
                "workbook", "read", "read", "runs", "peak", ".xlsx", "target", "read",
            ])
        #expect(
            RunCommandTests.metric("read alike", in: first.standardOutput)
                == "yes (rows, column mapping, unmapped columns, problems)")
        #expect(
            RunCommandTests.metric("workbook", in: first.standardOutput)?.hasPrefix("central.xlsx: 500 data rows")
                == true)
        let second = try runner.run(["workbook", "--rows", "500", "--runs", "1", "--data", data])
        #expect(second.status == 0)
        #expect(!second.standardError.contains("XlsxWriter"), "the kept workbook is reused")
    }
}
