import Foundation
import Testing

@testable import stocktake_bench

/// `stocktake-bench run`: options, usage errors, and whole runs of the built executables on small accounts.
struct RunCommandTests {
    let runner = BenchRunner()

    /// The value of the metric `label` in a report, without its alignment.
    static func metric(_ label: String, in output: String) -> String? {
        for line in output.split(separator: "\n") where line.hasPrefix("  " + label + " ") {
            return line.dropFirst(2 + label.count).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// The notes under the report's metrics (what differs), without their indentation.
    static func notes(in output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("      ") }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    }

    /// The labels of the report's metric lines, in order.
    static func labels(in output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("      ") }.map { line in
            String(line.dropFirst(2).prefix { $0 != " " })
        }
    }

    @Test func defaultsFitTheAssets() throws {
        let small = try #require(try RunCommand.parse(["--assets", "100000"]))
        #expect(small.tagDigits == 6 && small.cnsDigits == 6 && small.accounts == 1 && small.seed == 7)
        #expect(small.threads == nil && small.data == nil && small.reference == nil && !small.compareDuckDB)
        #expect(small.runs == 1)
        #expect(try RunCommand.parse(["--assets", "100000", "--runs", "5"])?.runs == 5)
        let large = try #require(try RunCommand.parse(["--assets", "1000000"]))
        #expect(large.tagDigits == 7 && large.cnsDigits == 7)
        let wide = try #require(try RunCommand.parse(["--assets", "500", "--tag-digits", "8"]))
        #expect(wide.tagDigits == 8 && wide.cnsDigits == 8)
        #expect(try RunCommand.parse(["--assets", "5", "--help"]) == nil)
    }

    @Test func manyAccountsShareAtMostEightDatasets() throws {
        let command = try #require(
            try RunCommand.parse(["--assets", "3000", "--accounts", "1000", "--seed", "40", "--threads", "2"]))
        #expect(command.datasets.map(\.seed) == Array(40...47))
        #expect(Set(command.datasets.map(\.assets)) == [3000])
        #expect(command.threads == 2)
        let few = try #require(try RunCommand.parse(["--assets", "3000", "--accounts", "3"]))
        #expect(few.datasets.map(\.seed) == [7, 8, 9])
    }

    @Test(arguments: [
        ([], "run needs --assets; run 'stocktake-bench run --help'."),
        (["--assets"], "--assets needs a value; run 'stocktake-bench run --help'."),
        (["--assets", "many"], "--assets must be a whole number, not 'many'."),
        (["--assets", "1000", "--frob"], "unknown option '--frob' for run; run 'stocktake-bench run --help'."),
        (["--assets", "50"], "50 assets are too few to inject every discrepancy; ask for at least 100."),
        (
            ["--assets", "200000", "--tag-digits", "6"],
            "200000 assets do not fit 6-digit VT tags: at most 100000 fit; ask for fewer assets or more digits."
        ),
        (["--assets", "1000", "--accounts", "0"], "--accounts must be at least 1, not 0."),
        (["--assets", "1000", "--threads", "0"], "--threads must be at least 1, not 0."),
        (["--assets", "1000", "--runs", "0"], "--runs must be at least 1, not 0."),
        (["--assets", "1000", "--runs", "few"], "--runs must be a whole number, not 'few'."),
        (
            ["--assets", "1000", "--seed", "-1"],
            "--seed must be a whole number from 0 to 18446744073709551615, not '-1'."
        ),
        (
            ["--assets", "1000", "--accounts", "2", "--compare-duckdb"],
            "--check-against and --compare-duckdb measure one account; leave out --accounts or make it 1."
        ),
        (
            ["--assets", "1000", "--accounts", "2", "--check-against", "/bin/true"],
            "--check-against and --compare-duckdb measure one account; leave out --accounts or make it 1."
        ),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try runner.run(["run"] + arguments)
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(result.standardError == "stocktake-bench: \(message)\n")
    }

    @Test func helpPrintsTheUsage() throws {
        let result = try runner.run(["run", "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput == RunCommand.usage + "\n")
        let overview = try runner.run(["--help"])
        #expect(overview.standardOutput.contains("  run        measure stocktake on generated accounts"))
    }

    @Test func oneAccountFindsExactlyTheInjectedDiscrepancies() throws {
        let data = runner.path("data")
        let first = try runner.run(["run", "--assets", "1000", "--data", data])
        #expect(first.status == 0, "\(first.standardError)")
        let lines = first.standardOutput.split(separator: "\n")
        #expect(
            lines.first == "stocktake-bench run: 1,000 assets × 1 account, seed 7, 6-digit tags, 6-digit CNS numbers")
        let labels = Self.labels(in: first.standardOutput)
        #expect(
            labels.filter { !$0.hasPrefix("phase") } == [
                "data", "command", "input", "wall", "CPU", "peak", "page", "rows/s", "MB/s", "assets/s", "µs/asset",
                "cat", "wall/floor", "start", "µs/asset", "findings",
            ])
        let start = try #require(Self.metric("start floor", in: first.standardOutput))
        #expect(
            start.hasSuffix(
                " s (`stocktake --version`, median of 9: starting the program and its libraries, and ending it)"))
        #expect(labels.contains("phase") && Self.metric("phase total", in: first.standardOutput) != nil)
        let folder = data + "/assets-1000-seed-7-tags-6-cns-6-as-of-2026-11-20"
        #expect(Self.metric("data", in: first.standardOutput) == "\(folder) (generated)")
        #expect(Self.metric("command", in: first.standardOutput) == "stocktake reconcile")
        #expect(Self.metric("input", in: first.standardOutput)?.hasPrefix("14 files, ") == true)
        let expected =
            try String(contentsOfFile: folder + "/expected.csv", encoding: .utf8)
            .split(separator: "\n").count - 1
        #expect(
            Self.metric("findings", in: first.standardOutput)
                == "equal to the injected ones (\(expected) expected, \(expected) found)")
        #expect(lines.last?.hasPrefix("result: 1,000 assets × 1 account in ") == true)
        #expect(lines.last?.hasSuffix("; findings equal") == true)
        #expect(first.standardError.hasPrefix("stocktake-bench: generating 1,000 assets (seed 7) into \(data)\n"))
        #expect(FileManager.default.fileExists(atPath: folder + "/bench-data.json"))

        let second = try runner.run(["run", "--assets", "1000", "--data", data])
        #expect(second.status == 0)
        #expect(Self.metric("data", in: second.standardOutput) == "\(folder) (reused)")
        #expect(!second.standardError.contains("generating"))
    }

    @Test func manyAccountsRunAsCronRunsThem() throws {
        // A relative data folder: the accounts still find their datasets.
        let result = try runner.run(["run", "--assets", "100", "--accounts", "3", "--data", "data"])
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        #expect(
            result.standardOutput.hasPrefix(
                "stocktake-bench run: 100 assets × 3 accounts, 3 datasets (seeds 7–9), 6-digit tags, 6-digit CNS numbers\n"
            ))
        #expect(
            Self.metric("data", in: result.standardOutput)
                == "\(runner.path("data")) (3 datasets generated)")
        #expect(Self.metric("command", in: result.standardOutput) == "stocktake run over 3 accounts, one process each")
        #expect(Self.metric("input", in: result.standardOutput)?.hasPrefix("42 files, ") == true)
        #expect(Self.metric("phase total", in: result.standardOutput)?.hasSuffix(" s (sum over accounts)") == true)
        // The launcher and the three account processes each fault at least a few hundred times.
        let faults = try #require(Self.metric("page faults", in: result.standardOutput))
        #expect(faults.hasSuffix(" (all processes)"))
        let count = try #require(Int(faults.prefix(while: { $0 != " " }).filter(\.isNumber)))
        #expect(count > 1_000, "\(faults)")
        #expect(Self.metric("findings", in: result.standardOutput) == "equal to the injected ones in all 3 accounts")
        #expect(result.standardOutput.split(separator: "\n").last?.hasSuffix("; findings equal") == true)
        let again = try runner.run(["run", "--assets", "100", "--accounts", "4", "--data", "data"])
        #expect(again.status == 0)
        #expect(
            Self.metric("data", in: again.standardOutput)
                == "\(runner.path("data")) (3 of 4 datasets reused, the rest generated)")
    }

    /// A `stocktake` beside a copy of `stocktake-bench` that runs the real one and then changes its output with
    /// `edit` (shell commands; `$out` is the output folder).
    func benchWithStocktake(editing edit: String) throws -> String {
        let bench = try runner.copyExecutable(BenchRunner.executable("stocktake-bench"), to: "bin/stocktake-bench")
        try runner.script("bin/stocktake", Self.wrapper(editing: edit))
        return bench
    }

    static func wrapper(editing edit: String) throws -> String {
        """
        '\(try BenchRunner.executable("stocktake"))' "$@" || exit $?
        [ "$1" = --version ] && exit 0
        out=""; previous=""
        for argument in "$@"; do [ "$previous" = --out ] && out="$argument"; previous="$argument"; done
        \(edit)

        """
    }

    @Test func aMissingFindingFailsTheRun() throws {
        let bench = try benchWithStocktake(
            editing: #"printf 'MISSING,error,999999,,,,,,,,planted\n' >> "$out/discrepancies.csv""#)
        let result = try runner.run(program: bench, ["run", "--assets", "1000"])
        #expect(result.status == 1)
        let findings = try #require(Self.metric("findings", in: result.standardOutput))
        #expect(findings.hasPrefix("DIFFER: 0 not found, 1 not expected ("))
        #expect(Self.notes(in: result.standardOutput) == ["not expected: MISSING vt_tag=999999 (planted)"])
        #expect(result.standardOutput.split(separator: "\n").last?.hasSuffix("; findings DIFFER") == true)
    }

    /// The wall metric of several runs: "0.077 s (median of 3 runs, 0.075 s–0.079 s)", the median between the two.
    static func medianWall(_ output: String, runs: Int) throws -> Bool {
        let wall = try #require(metric("wall", in: output))
        let numbers = wall.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
        guard numbers.count == 4, numbers[1] == Double(runs) else { return false }
        return wall.contains(" (median of \(runs) runs, ") && numbers[2] <= numbers[0] && numbers[0] <= numbers[3]
    }

    @Test func severalRunsReportTheMedianRunAndCheckEveryRunsFindings() throws {
        let data = runner.path("data")
        let result = try runner.run(["run", "--assets", "100", "--runs", "3", "--data", data])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Self.medianWall(result.standardOutput, runs: 3), "\(result.standardOutput)")
        #expect(result.standardError.contains("reconcile (run 1 of 3)\n"))
        #expect(result.standardError.contains("reconcile (run 3 of 3)\n"))
        #expect(Self.metric("findings", in: result.standardOutput)?.hasPrefix("equal to the injected ones") == true)

        let accounts = try runner.run(["run", "--assets", "100", "--accounts", "2", "--runs", "2", "--data", data])
        #expect(accounts.status == 0, "\(accounts.standardError)")
        #expect(try Self.medianWall(accounts.standardOutput, runs: 2), "\(accounts.standardOutput)")
        #expect(accounts.standardError.contains("run over 2 accounts (run 2 of 2)\n"))
        #expect(Self.metric("findings", in: accounts.standardOutput) == "equal to the injected ones in all 2 accounts")
    }

    /// A finding planted in the first of three runs only, which is made the slowest, so that the median run is a
    /// good one: the benchmark still fails, and reports the run whose findings differ.
    @Test func aRunWhoseFindingsDifferFailsTheBenchmarkWhateverTheMedian() throws {
        let counter = runner.path("runs-so-far")
        let bench = try benchWithStocktake(
            editing: """
                echo x >> '\(counter)'
                if [ "$(wc -l < '\(counter)')" -eq 1 ]; then
                  sleep 1
                  printf 'MISSING,error,999999,,,,,,,,planted\\n' >> "$out/discrepancies.csv"
                fi
                """)
        let result = try runner.run(program: bench, ["run", "--assets", "100", "--runs", "3"])
        #expect(result.status == 1, "\(result.standardOutput)\n\(result.standardError)")
        #expect(Self.notes(in: result.standardOutput) == ["not expected: MISSING vt_tag=999999 (planted)"])
        #expect(result.standardOutput.split(separator: "\n").last?.hasSuffix("; findings DIFFER") == true)
    }

    @Test func checkAgainstTheSameProgramFindsTheOutputsIdentical() throws {
        let stocktake = try BenchRunner.executable("stocktake")
        let result = try runner.run(["run", "--assets", "1000", "--check-against", stocktake])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.metric("reference", in: result.standardOutput) == "outputs identical to \(stocktake)")
        #expect(Self.metric("reference wall", in: result.standardOutput)?.contains(" peak (new/reference ") == true)
        #expect(
            result.standardOutput.split(separator: "\n").last?.hasSuffix(
                "; findings equal; outputs identical to the reference") == true)
    }

    @Test func checkAgainstAReferenceWhoseCleanedSheetDiffers() throws {
        let reference = try runner.script(
            "reference", try Self.wrapper(editing: #"sed -i '2s/,/;/' "$out/cleaned.csv""#))
        let result = try runner.run(["run", "--assets", "1000", "--check-against", reference])
        #expect(result.status == 1)
        #expect(Self.metric("reference", in: result.standardOutput) == "outputs DIFFER from \(reference):")
        let notes = Self.notes(in: result.standardOutput)
        #expect(notes.count == 1)
        #expect(notes.first?.hasPrefix("cleaned.csv: line 2: reference '") == true)
        #expect(!result.standardOutput.contains("report.html:") && !result.standardOutput.contains("summary.txt:"))
        #expect(
            result.standardOutput.split(separator: "\n").last?.hasSuffix("; findings equal; outputs DIFFER") == true)
    }

    @Test func compareDuckDBRunsTheSQLProgramAndPrintsItsCounts() throws {
        let python = try runner.script(
            "python",
            """
            cp "$1" '\(runner.path("script.py"))'
            echo "$2 $4 $5 $6" > '\(runner.path("arguments"))'
            echo '{"MISSING": 4, "UNRECORDED": 3, "DUPLICATE_TAG": 2, "TAG_CNS_MISMATCH": 2, "SHARED_SERIAL": 2, \
            "SHARED_MAC": 1, "rows": 6582, "cleaned rows": 1000}'

            """)
        let result = try runner.run(
            ["run", "--assets", "1000", "--compare-duckdb", "--threads", "1", "--data", runner.path("data")],
            environment: ["STOCKTAKE_BENCH_PYTHON": python])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.metric("DuckDB MISSING", in: result.standardOutput)?.hasPrefix("4 (stocktake ") == true)
        #expect(Self.metric("DuckDB SHARED_MAC", in: result.standardOutput)?.hasPrefix("1 (stocktake ") == true)
        #expect(Self.metric("DuckDB rows", in: result.standardOutput)?.hasPrefix("6,582 (stocktake ") == true)
        #expect(Self.metric("stocktake/DuckDB", in: result.standardOutput)?.hasSuffix("× (wall over wall)") == true)
        #expect(Self.metric("threads", in: result.standardOutput) == "STOCKTAKE_THREADS=1")
        #expect(result.standardOutput.split(separator: "\n").last?.contains("; stocktake/DuckDB ") == true)
        let script = try String(contentsOfFile: runner.path("script.py"), encoding: .utf8)
        #expect(script == DuckDBScript.text)
        let arguments = try String(contentsOfFile: runner.path("arguments"), encoding: .utf8)
        #expect(arguments == runner.path("data") + "/assets-1000-seed-7-tags-6-cns-6-as-of-2026-11-20 6 6 1\n")
    }

    @Test func compareDuckDBWithoutDuckDBSaysHowToInstallIt() throws {
        let result = try runner.run(
            ["run", "--assets", "1000", "--compare-duckdb"],
            environment: ["STOCKTAKE_BENCH_PYTHON": "/nonexistent/python3"])
        #expect(result.status == 69)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "stocktake-bench: /nonexistent/python3 does not exist or is not executable; set STOCKTAKE_BENCH_PYTHON "
                + "to a Python 3 that has duckdb, or unset it.\n")
    }

    /// The runner retries an exec that failed with ETXTBSY (a copied executable still open in another test's child)
    /// in either shape Foundation reports it; nothing else is retried.
    @Test func textFileBusyIsRecognisedAsFoundationReportsIt() {
        let posix = NSError(domain: NSPOSIXErrorDomain, code: Int(ETXTBSY))
        #expect(BenchRunner.isTextFileBusy(posix))
        #expect(
            BenchRunner.isTextFileBusy(
                NSError(domain: NSCocoaErrorDomain, code: 256, userInfo: [NSUnderlyingErrorKey: posix])))
        #expect(!BenchRunner.isTextFileBusy(NSError(domain: NSPOSIXErrorDomain, code: Int(ENOENT))))
        #expect(
            !BenchRunner.isTextFileBusy(
                NSError(
                    domain: NSCocoaErrorDomain, code: 256,
                    userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))])))
    }

    @Test func withoutStocktakeBesideItNothingRuns() throws {
        let bench = try runner.copyExecutable(BenchRunner.executable("stocktake-bench"), to: "lonely/stocktake-bench")
        let result = try runner.run(program: bench, ["run", "--assets", "1000", "--data", runner.path("data")])
        #expect(result.status == 69)
        #expect(
            result.standardError
                == "stocktake-bench: \(runner.path("lonely"))/stocktake does not exist or is not executable; build it "
                + "next to stocktake-bench with 'swift build -c release'.\n")
        #expect(!FileManager.default.fileExists(atPath: runner.path("data")))
    }

    @Test func aFailingStocktakeIsReportedWithItsMessages() throws {
        let bench = try benchWithStocktake(editing: "echo 'stocktake: the disk is full' >&2; exit 73")
        let result = try runner.run(program: bench, ["run", "--assets", "1000"])
        #expect(result.status == 69)
        #expect(
            result.standardError.hasSuffix(
                "stocktake-bench: \(runner.path("bin"))/stocktake reconcile exited with status 73, so there is nothing "
                    + "to measure; its last messages:\n  stocktake: the disk is full\n"))
    }
}
