import Foundation

/// `--compare-duckdb`: the same account reconciled by ``DuckDBScript`` in DuckDB, measured as `stocktake` is.
struct DuckDBComparison: Sendable {
    /// The environment variable that names the Python interpreter with `duckdb` installed.
    static let pythonVariable = "STOCKTAKE_BENCH_PYTHON"
    /// Where `make bench-deps` installs DuckDB, searched for in the folders above the benchmark's executable.
    static let virtualEnvironment = "bench-venv/bin/python3"
    /// The codes the SQL counts, in the order they are printed.
    static let codes = ["MISSING", "UNRECORDED", "DUPLICATE_TAG", "TAG_CNS_MISMATCH", "SHARED_SERIAL", "SHARED_MAC"]

    /// What the DuckDB process cost.
    var measurement: ProcessMeasurement
    /// Its counts: the codes, `rows` (rows read) and `cleaned rows`.
    var counts: [String: Int]

    /// The Python interpreter to run: `$STOCKTAKE_BENCH_PYTHON`, or `bench-venv/bin/python3` in the nearest
    /// folder above `executableFolder` that has one (`.build/bench-venv`).
    static func python(environment: [String: String], executableFolder: String) throws(BenchError) -> String {
        if let python = environment[pythonVariable], !python.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: python) else {
                throw .programMissing(
                    path: python, fix: "set \(pythonVariable) to a Python 3 that has duckdb, or unset it.")
            }
            return python
        }
        var folder = executableFolder
        while !folder.isEmpty && folder != "/" {
            let candidate = folder + "/" + virtualEnvironment
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = (folder as NSString).deletingLastPathComponent
        }
        throw .programMissing(
            path: ".build/" + virtualEnvironment,
            fix: "run 'make bench-deps' to install DuckDB there, or set \(pythonVariable) to a Python 3 with duckdb.")
    }

    /// Runs the SQL reconciliation of `dataset` with `python`, writing into `work`, with `threads` DuckDB threads
    /// (0: DuckDB's default).
    static func run(
        dataset: Dataset, python: String, work: String, threads: Int
    ) throws(BenchError) -> DuckDBComparison {
        let script = work + "/duckdb-reconcile.py"
        let output = work + "/duckdb"
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            try Data(DuckDBScript.text.utf8).write(to: URL(fileURLWithPath: script))
        } catch {
            throw .cannotWrite(path: script, reason: "the SQL program cannot be written (check the free space)")
        }
        let parameters = dataset.parameters
        let process = MeasuredProcess(
            program: python,
            arguments: [
                script, dataset.folder, output, String(parameters.tagDigits), String(parameters.cnsDigits),
                String(threads),
            ],
            standardOutput: work + "/duckdb.out", standardError: work + "/duckdb.err")
        let (outcome, measurement) = try process.run()
        guard outcome.succeeded else {
            throw .programFailed(
                program: "DuckDB (\(python) \(script))", outcome: outcome, log: LogTail.read(work + "/duckdb.err"))
        }
        let data = FileManager.default.contents(atPath: work + "/duckdb.out") ?? Data()
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .cannotRead(path: work + "/duckdb.out", reason: "the SQL program printed no JSON counts")
        }
        let counts = object.compactMapValues { ($0 as? NSNumber)?.intValue }
        return DuckDBComparison(measurement: measurement, counts: counts)
    }
}
