import Testing

@testable import stocktake_bench

/// The exact report `stocktake-bench run` prints.
struct BenchmarkReportTests {
    static func result(findings: [Finding] = [], reference differences: [String] = []) throws -> BenchmarkResult {
        let command = try #require(
            try RunCommand.parse([
                "--assets", "1000000", "--data", "/data", "--check-against", "/old/stocktake", "--compare-duckdb",
            ]))
        let expected = [FindingsComparisonTests.finding("MISSING", tag: "0001234", text: "central row 3")]
        var comparison = OutputComparison(reference: "/nonexistent", new: "/nonexistent")
        comparison.differences = differences
        return BenchmarkResult(
            command: command,
            datasets: [Dataset(parameters: command.datasets[0], folder: "/data/m1", reused: true)],
            program: "stocktake reconcile",
            measurement: ProcessMeasurement(
                wallSeconds: 53.921, userSeconds: 52, systemSeconds: 6.1, peakResidentBytes: 5_012_000_000,
                pageFaults: 1_203_456),
            inputFiles: 14, rows: 6_572_690, inputBytes: 418_300_000,
            phases: [("read", 4.766), ("reconcile", 17.631), ("write", 2.53), ("total", 53.921)],
            floor: PageCacheFloor(seconds: 0.0521, bytes: 418_300_000),
            findings: [
                .init(
                    account: "account", comparison: FindingsComparison(expected: expected, found: expected + findings))
            ],
            counts: ["MISSING": 2000, "UNRECORDED": 2000, "DUPLICATE_TAG": 2000, "SHARED_MAC": 2000],
            duckDB: DuckDBComparison(
                measurement: ProcessMeasurement(
                    wallSeconds: 16, userSeconds: 20, systemSeconds: 1, peakResidentBytes: 2_100_000_000),
                counts: ["MISSING": 4000, "UNRECORDED": 3000, "rows": 6_572_690]),
            reference: ReferenceRun(
                program: "/old/stocktake",
                measurement: ProcessMeasurement(
                    wallSeconds: 54.5, userSeconds: 53, systemSeconds: 6, peakResidentBytes: 5_000_000_000),
                comparison: comparison))
    }

    /// The generator runs in a child process of its own, so a run that generated its data measures the peak
    /// as a run on kept data does.
    @Test func aPeakMeasuredAfterGeneratingTheDataIsThePeak() throws {
        var result = try Self.result()
        result.datasets = [Dataset(parameters: result.command.datasets[0], folder: "/data/m1", reused: false)]
        let lines = BenchmarkReport.text(result).split(separator: "\n")
        #expect(lines.contains("  data                     /data/m1 (generated)"))
        #expect(lines.contains("  peak RSS                 5,012 MB"))
    }

    @Test func severalRunsShowTheMedianWithTheFastestAndTheSlowest() throws {
        var result = try Self.result()
        result.series = RunSeries(walls: [60.2, 53.921, 51.05])
        let lines = BenchmarkReport.text(result).split(separator: "\n")
        #expect(lines.contains("  wall                     53.92 s (median of 3 runs, 51.05 s–60.20 s)"))
        #expect(lines.contains("  µs/asset                 53.92"), "the rates are the median run's")
    }

    @Test func theWholeReport() throws {
        let result = try Self.result()
        #expect(result.exitStatus == 0)
        #expect(
            BenchmarkReport.text(result) == """
                stocktake-bench run: 1,000,000 assets × 1 account, seed 7, 7-digit tags, 7-digit CNS numbers
                  data                     /data/m1 (reused)
                  command                  stocktake reconcile
                  input                    14 files, 6,572,690 rows, 418 MB
                  wall                     53.92 s
                  CPU                      58.10 s (user 52.00 s, system 6.10 s; 1.08 cores busy)
                  peak RSS                 5,012 MB
                  page faults              1,203,456
                  rows/s                   121,895
                  MB/s                     7.8
                  assets/s                 18,546
                  µs/asset                 53.92
                  phase read               4.77 s
                  phase reconcile          17.63 s
                  phase write              2.53 s
                  phase total              53.92 s
                  cat floor                0.052 s (418 MB at 8,029 MB/s from the page cache)
                  wall/floor               1,035×
                  findings                 equal to the injected ones (1 expected, 1 found)
                  reference                outputs identical to /old/stocktake
                  reference wall           54.50 s, 5,000 MB peak (new/reference 0.99×)
                  DuckDB wall              16.00 s, CPU 21.00 s, 2,100 MB peak (approximate SQL: six codes, no typos, \
                conflicts or reports)
                  stocktake/DuckDB         3.37× (wall over wall)
                  DuckDB rows              6,572,690 (stocktake 6,572,690)
                  DuckDB MISSING           4,000 (stocktake 2,000)
                  DuckDB UNRECORDED        3,000 (stocktake 2,000)
                  DuckDB DUPLICATE_TAG     0 (stocktake 2,000)
                  DuckDB TAG_CNS_MISMATCH  0 (stocktake 0)
                  DuckDB SHARED_SERIAL     0 (stocktake 0)
                  DuckDB SHARED_MAC        0 (stocktake 2,000)
                result: 1,000,000 assets × 1 account in 53.92 s wall, 58.10 s CPU, 5,012 MB peak, 1,035× the cat floor; \
                findings equal; outputs identical to the reference; stocktake/DuckDB 3.37×
                """)
    }

    /// The start floor follows the cat floor, and the time per asset over it leaves the start out of the wall time.
    @Test func theStartFloorAndTheTimePerAssetOverIt() throws {
        var result = try Self.result()
        result.start = StartFloor(seconds: 0.0086, runs: 9)
        let lines = BenchmarkReport.text(result).split(separator: "\n")
        let floor = try #require(lines.firstIndex(of: "  wall/floor               1,035×"))
        #expect(
            lines[floor + 1]
                == "  start floor              0.0086 s (`stocktake --version`, median of 9: starting the program and its "
                + "libraries, and ending it)")
        #expect(lines[floor + 2] == "  µs/asset over start      53.91")
        #expect(lines.contains("  µs/asset                 53.92"))
    }

    /// A jobs benchmark that wrote on ext4 without a journal says so after the command.
    @Test func aJournalFreeFileSystemIsNamedAfterTheCommand() throws {
        var result = try Self.result()
        #expect(!BenchmarkReport.text(result).contains("file system"))
        result.fileSystem = JournalFreeExt4(device: "vda")
        let lines = BenchmarkReport.text(result).split(separator: "\n")
        let command = try #require(lines.firstIndex(of: "  command                  stocktake reconcile"))
        #expect(lines[command + 1] == "  file system              " + JournalFreeExt4(device: "vda").caution)
    }

    @Test func differencesAreListedUnderTheirMetric() throws {
        let result = try Self.result(
            findings: [FindingsComparisonTests.finding("SHARED_MAC", tag: "0009999", text: "planted")],
            reference: ["cleaned.csv: line 2: reference 'a', new 'b'"])
        #expect(result.exitStatus == 1)
        let text = BenchmarkReport.text(result)
        #expect(
            text.contains(
                """
                  wall/floor               1,035×
                  findings                 DIFFER: 0 not found, 1 not expected (1 expected, 2 found):
                                               not expected: SHARED_MAC vt_tag=0009999 (planted)
                  reference                outputs DIFFER from /old/stocktake:
                                               cleaned.csv: line 2: reference 'a', new 'b'
                  reference wall           54.50 s, 5,000 MB peak (new/reference 0.99×)

                """))
        #expect(text.hasSuffix("; findings DIFFER; outputs DIFFER; stocktake/DuckDB 3.37×"))
    }
}
