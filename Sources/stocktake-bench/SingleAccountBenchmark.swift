import Foundation

/// One account: `stocktake reconcile … --quiet --out DIR`, as a user or a script runs it.
struct SingleAccountBenchmark {
    var command: RunCommand
    var dataset: Dataset
    /// The `stocktake` executable measured.
    var stocktake: String
    /// Variables added to the children's environment.
    var environment: [String: String]
    /// The temporary folder outputs and logs go to.
    var work: String
    /// The Python with DuckDB, for `--compare-duckdb`.
    var python: String?

    /// The arguments of `stocktake reconcile` on `dataset`, writing into `output`.
    static func arguments(_ dataset: Dataset, output: String) -> [String] {
        let parameters = dataset.parameters
        return [
            "reconcile", "--central", dataset.central, "--sighting", dataset.sightings, "--register",
            dataset.registers, "--buildings", dataset.buildings, "--tag-digits", String(parameters.tagDigits),
            "--cns-digits", String(parameters.cnsDigits), "--as-of", parameters.asOf.iso, "--quiet", "--out", output,
        ]
    }

    /// Measures the floors, then `stocktake` (`--runs` times, each into its own outputs), then (outside its timing)
    /// the reference and DuckDB. The run of median wall time is reported, unless a run's findings differ from the
    /// injected ones: then that run's findings are.
    func run() throws(BenchError) -> BenchmarkResult {
        let inputs = try dataset.inputFiles()
        let floor = try PageCacheFloor.measure(inputs)
        let start = try StartFloor.measure(stocktake, environment: environment, logs: work + "/start")
        let expected = try Finding.read(path: dataset.expected)
        var runs: [(measurement: ProcessMeasurement, output: String, comparison: FindingsComparison)] = []
        for index in 0..<command.runs {
            StandardError.write("stocktake-bench: running \(stocktake) reconcile" + Self.ordinal(index, command.runs))
            let folder = work + (index == 0 ? "/new" : "/new-\(index + 1)")
            let output = folder + "/out"
            let measurement = try Self.measure(
                stocktake, Self.arguments(dataset, output: output), environment: environment, logs: folder)
            let comparison = FindingsComparison(
                expected: expected, found: try Finding.read(path: output + "/discrepancies.csv"))
            runs.append((measurement, output, comparison))
        }
        let series = RunSeries(walls: runs.map(\.measurement.wallSeconds))
        let reported = series.reportedIndex(differs: runs.map { !$0.comparison.isEqual })
        let (measurement, output, comparison) = runs[reported]
        let record = try RunRecordDigest(path: output + "/run.json")
        var result = BenchmarkResult(
            command: command, datasets: [dataset], program: "stocktake reconcile", measurement: measurement,
            series: runs.count > 1 ? series : nil, inputFiles: inputs.count, rows: record.rows,
            inputBytes: floor.bytes, phases: record.phases, floor: floor, start: start,
            findings: [.init(account: "account", comparison: comparison)], counts: record.discrepancies)
        if let reference = command.reference {
            StandardError.write("stocktake-bench: running the reference \(reference) reconcile")
            let referenceOutput = work + "/reference/out"
            let referenceMeasurement = try Self.measure(
                reference, Self.arguments(dataset, output: referenceOutput), environment: environment,
                logs: work + "/reference")
            result.reference = ReferenceRun(
                program: reference, measurement: referenceMeasurement,
                comparison: OutputComparison(reference: referenceOutput, new: output))
        }
        if let python {
            StandardError.write("stocktake-bench: running the SQL reconciliation in DuckDB")
            result.duckDB = try DuckDBComparison.run(
                dataset: dataset, python: python, work: work, threads: command.threads ?? 0)
        }
        return result
    }

    /// " (run 2 of 5)" when there are several runs, else nothing.
    static func ordinal(_ index: Int, _ count: Int) -> String {
        count > 1 ? " (run \(index + 1) of \(count))" : ""
    }

    /// Runs `program` with `arguments`, its standard output and error in files in `logs`; throws when it fails.
    static func measure(
        _ program: String, _ arguments: [String], environment: [String: String], logs: String
    ) throws(BenchError) -> ProcessMeasurement {
        do {
            try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: logs, reason: "the folder cannot be made (check the free space)")
        }
        let process = MeasuredProcess(
            program: program, arguments: arguments, extraEnvironment: environment,
            standardOutput: logs + "/stdout", standardError: logs + "/stderr")
        let (outcome, measurement) = try process.run()
        guard outcome.succeeded else {
            let name = ([program] + arguments.prefix(1)).joined(separator: " ")
            throw .programFailed(program: name, outcome: outcome, log: LogTail.read(logs + "/stderr"))
        }
        return measurement
    }
}
