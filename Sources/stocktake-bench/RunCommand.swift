import Foundation
import StocktakeCore
import StocktakeGenerator

/// `stocktake-bench run --assets N [--accounts K] [--seed S] [--threads T] [--runs N] [--tag-digits N]
/// [--cns-digits N] [--data DIR] [--check-against PATH] [--compare-duckdb]`
///
/// Measures what users run, on generated accounts whose findings are known (see ``usage``).
struct RunCommand {
    /// The command's usage text.
    static let usage = """
        usage: stocktake-bench run --assets N [--accounts K] [--seed S] [--threads T] [--runs N] \
        [--tag-digits N] [--cns-digits N] [--data DIR] [--check-against PATH] [--compare-duckdb]

        Generates accounts (outside the timing), runs the stocktake executable next to stocktake-bench on them
        exactly as users do, and prints wall time, user+system CPU, peak RSS, page faults, rows/s, MB/s, the time
        of each phase the run records in run.json, the cat floor (reading the inputs from the page cache) and the
        ratio to it, the start floor (stocktake --version: starting the program and its libraries) and the time
        per asset over it, and whether the findings equal the injected ones (as the acceptance tests judge them).

        With one account it runs 'stocktake reconcile … --quiet --out DIR'. With --accounts K it writes a jobs
        folder of K accounts and runs 'stocktake run' over it as cron does, each account in its own process.
        Generating K large accounts would take far longer than running them, so K accounts share up to 8
        generated datasets (seeds S, S+1, …) round-robin; each account still has its own folder, account.json,
        state and outputs.

        options:
          --assets N          central assets per account (at least 100)
          --accounts K        accounts (default 1)
          --seed S            seed of the first dataset (default 7)
          --threads T         threads stocktake uses (passed as STOCKTAKE_THREADS; by default one per
                              core) and DuckDB's thread count
          --runs N            run stocktake N times, each into fresh outputs (and a fresh state folder), and
                              report the run of median wall time with the fastest and the slowest; every run's
                              findings are checked (default 1)
          --tag-digits N      digits of a VT tag (default: 6, or as many as N assets need)
          --cns-digits N      digits of a CNS number after the C (default: as --tag-digits)
          --data DIR          keep generated data in DIR, one folder per parameter set, and reuse it when its
                              marker (bench-data.json) records the same parameters; delete DIR after changing
                              the generator (default: a temporary folder, removed afterwards)
          --check-against PATH
                              also run the stocktake executable at PATH (an older build) on the same input,
                              outside the timing, and compare the outputs byte for byte (report.html and
                              summary.txt without their start-time and output-path lines); one account only
          --compare-duckdb    also run an approximate SQL version of the reconciliation in DuckDB, timed the
                              same way, and print the ratio; one account only. Needs 'make bench-deps' (PyPI
                              duckdb in .build/bench-venv) or STOCKTAKE_BENCH_PYTHON naming a Python with duckdb
          -h, --help          show this help

        Exit status: 0 the findings equal the injected ones (and the outputs equal the reference's), 1 they do
        not (what differs is printed), 64 bad usage, 66 an input cannot be read, 69 a program is missing or
        failed, 73 data cannot be generated or written. Times never make it fail.
        """

    /// The most datasets generated for many accounts.
    static let maximumDatasets = 8
    /// The default seed (that of the datasets in the README's results).
    static let defaultSeed: UInt64 = 7

    var assets: Int
    var accounts = 1
    var seed = defaultSeed
    var threads: Int?
    /// How many times stocktake is run (`--runs`); the run of median wall time is reported.
    var runs = 1
    var tagDigits: Int
    var cnsDigits: Int
    var data: String?
    var reference: String?
    var compareDuckDB = false

    /// The parameters of each dataset the accounts read: one for one account, else up to ``maximumDatasets``
    /// with consecutive seeds.
    var datasets: [DatasetParameters] {
        (0..<min(accounts, Self.maximumDatasets)).map { index in
            DatasetParameters(
                assets: assets, seed: seed &+ UInt64(index), tagDigits: tagDigits, cnsDigits: cnsDigits,
                asOf: GeneratorOptions(assets: assets, seed: seed).asOf)
        }
    }

    /// The fewest identifier digits (at least the generator's default of 6) that hold `assets` assets.
    static func digits(for assets: Int) -> Int {
        var digits = GeneratorOptions(assets: assets, seed: 0).tagDigits
        while GeneratorOptions.maximumAssets(digits: digits) < assets
            && digits
                < GeneratorOptions.supportedDigits
                .upperBound
        {
            digits += 1
        }
        return digits
    }

    /// Parses the arguments after `run`; `nil` when help was asked for.
    static func parse(_ arguments: [String]) throws(UsageError) -> RunCommand? {
        let valued = [
            "--assets", "--accounts", "--seed", "--threads", "--runs", "--tag-digits", "--cns-digits", "--data",
            "--check-against",
        ]
        var values: [String: String] = [:]
        var compareDuckDB = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-h" || argument == "--help" { return nil }
            if argument == "--compare-duckdb" {
                compareDuckDB = true
                continue
            }
            guard valued.contains(argument) else {
                throw UsageError("unknown option '\(argument)' for run; run 'stocktake-bench run --help'.")
            }
            guard index < arguments.count else {
                throw UsageError("\(argument) needs a value; run 'stocktake-bench run --help'.")
            }
            values[argument] = arguments[index]
            index += 1
        }
        guard let assetsText = values["--assets"] else {
            throw UsageError("run needs --assets; run 'stocktake-bench run --help'.")
        }
        let assets = try number(assetsText, option: "--assets")
        let tagDigits = try values["--tag-digits"].map { text throws(UsageError) in
            try number(text, option: "--tag-digits")
        }
        let cnsDigits = try values["--cns-digits"].map { text throws(UsageError) in
            try number(text, option: "--cns-digits")
        }
        var command = RunCommand(
            assets: assets, tagDigits: tagDigits ?? digits(for: assets),
            cnsDigits: cnsDigits ?? tagDigits ?? digits(for: assets))
        if let text = values["--accounts"] {
            command.accounts = try number(text, option: "--accounts")
            guard command.accounts >= 1 else { throw UsageError("--accounts must be at least 1, not \(text).") }
        }
        if let text = values["--seed"] {
            guard let seed = UInt64(text) else {
                throw UsageError("--seed must be a whole number from 0 to 18446744073709551615, not '\(text)'.")
            }
            command.seed = seed
        }
        if let text = values["--threads"] {
            let threads = try number(text, option: "--threads")
            guard threads >= 1 else { throw UsageError("--threads must be at least 1, not \(text).") }
            command.threads = threads
        }
        if let text = values["--runs"] {
            let runs = try number(text, option: "--runs")
            guard runs >= 1 else { throw UsageError("--runs must be at least 1, not \(text).") }
            command.runs = runs
        }
        command.data = values["--data"]
        command.reference = values["--check-against"]
        command.compareDuckDB = compareDuckDB
        if command.accounts > 1 && (command.reference != nil || compareDuckDB) {
            throw UsageError(
                "--check-against and --compare-duckdb measure one account; leave out --accounts or make it 1.")
        }
        do {
            try command.datasets[0].generatorOptions.validate()
        } catch {
            throw UsageError(error.description)
        }
        return command
    }

    /// Runs the command; returns the process exit status (see ``usage``).
    static func main(_ arguments: [String]) -> Int32 {
        var status: Int32 = 0
        guard let command = UsageError.command(arguments, usage: usage, status: &status, parse: parse) else {
            return status
        }
        do {
            let result = try command.run()
            print(BenchmarkReport.text(result))
            return result.exitStatus
        } catch {
            StandardError.write("stocktake-bench: \(error.description)")
            return error.exitStatus
        }
    }

    /// Generates (or reuses) the data, runs the benchmark and returns what it measured.
    func run() throws(BenchError) -> BenchmarkResult {
        let folder = BenchExecutable.folder()
        let stocktake = try BenchExecutable.stocktake()
        if let reference, !FileManager.default.isExecutableFile(atPath: reference) {
            throw .programMissing(path: reference, fix: "give --check-against the path of a built stocktake.")
        }
        let python =
            compareDuckDB
            ? try DuckDBComparison.python(environment: ProcessInfo.processInfo.environment, executableFolder: folder)
            : nil
        let work = try WorkFolder()
        defer { work.remove() }
        // Absolute, as the accounts' account.json files name the datasets by path.
        let root = data.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? work.path + "/data"
        let store = DatasetStore(root: root)
        var datasets: [Dataset] = []
        for parameters in self.datasets {
            datasets.append(try store.dataset(for: parameters))
        }
        var environment: [String: String] = [:]
        if let threads { environment["STOCKTAKE_THREADS"] = String(threads) }
        if accounts == 1 {
            return try SingleAccountBenchmark(
                command: self, dataset: datasets[0], stocktake: stocktake, environment: environment,
                work: work.path, python: python
            ).run()
        }
        return try JobsBenchmark(
            command: self, datasets: datasets, stocktake: stocktake, environment: environment, work: work.path
        ).run()
    }

    private static func number(_ text: String, option: String) throws(UsageError) -> Int {
        guard let value = Int(text), value >= 0 else {
            throw UsageError("\(option) must be a whole number, not '\(text)'.")
        }
        return value
    }
}
