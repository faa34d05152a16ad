import Foundation
import StocktakeCore
import StocktakeGenerator

/// `stocktake-bench report [--findings N] [--seed S] [--runs K] [--data DIR]`
///
/// Measures report.html on an account with many findings: its size, and how long headless Chromium takes to load
/// and paint it (see ``usage``).
struct ReportCommand {
    /// The command's usage text.
    static let usage = """
        usage: stocktake-bench report [--findings N] [--seed S] [--runs K] [--data DIR]

        Generates an account with at least N findings (outside the timing: one set of injected discrepancies,
        about 16 findings, per 25 assets), runs 'stocktake reconcile' on it exactly as users run it, then
        measures the report.html it wrote: its size, and the time headless Chromium takes to load and paint it
        ('chromium --headless --screenshot', start to exit), K times; it prints the median, and the time of an
        empty page rendered the same way (Chromium's own start). Both are judged against the issue's limits:
        under 20 MB and under 10 s for 50,000 findings.

        options:
          --findings N  findings the account must have at least (default 50000, at least 100)
          --seed S      seed of the generated account (default 7)
          --runs K      renderings of the report; the median is printed (default 3)
          --data DIR    keep the generated account in DIR and reuse it (as 'run --data')
          -h, --help    show this help

        Exit status: 0 the report was written and rendered, 1 it was not (why is printed), 64 bad usage,
        69 a program is missing (chromium: 'make test-deps'), 73 data cannot be generated or written.
        Size and time never make it fail.
        """

    /// The limit on report.html's size, in bytes (20 MB).
    static let sizeLimit = 20_000_000
    /// The limit on loading and painting report.html, in seconds.
    static let secondsLimit = 10.0
    /// Findings per set of injected discrepancies, at least (each set is about 16 findings).
    static let findingsPerInjection = 15

    var findings = 50_000
    var seed = RunCommand.defaultSeed
    var runs = 3
    var data: String?

    /// The generated account's parameters: dense injections, and enough assets for ``findings``.
    var parameters: DatasetParameters {
        let every = GeneratorOptions.densestAssetsPerInjection
        let injections = (findings + Self.findingsPerInjection - 1) / Self.findingsPerInjection
        let assets = max(GeneratorOptions.minimumAssets, injections * every)
        let digits = RunCommand.digits(for: assets)
        var parameters = DatasetParameters(
            assets: assets, seed: seed, tagDigits: digits, cnsDigits: digits,
            asOf: GeneratorOptions(assets: assets, seed: seed).asOf)
        parameters.assetsPerInjection = every
        return parameters
    }

    /// Parses the arguments after `report`; `nil` when help was asked for.
    static func parse(_ arguments: [String]) throws(UsageError) -> ReportCommand? {
        var command = ReportCommand()
        guard
            let pairs = try UsageError.pairs(
                arguments, options: ["--findings", "--seed", "--runs", "--data"], of: "report")
        else { return nil }
        for (option, value) in pairs {
            switch option {
            case "--findings": command.findings = try UsageError.wholeNumber(value, of: option, atLeast: 100)
            case "--seed": command.seed = try UsageError.seed(value)
            case "--runs": command.runs = try UsageError.wholeNumber(value, of: option, atLeast: 1)
            default: command.data = value
            }
        }
        do {
            try command.parameters.generatorOptions.validate()
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
            print(try command.run().text)
            return 0
        } catch {
            StandardError.write("stocktake-bench: \(error.description)")
            // The report not written, or not rendered, is the benchmark's failure; the rest keep their status.
            if case .programFailed = error { return 1 }
            if case .cannotRead = error { return 1 }
            return error.exitStatus
        }
    }

    /// Generates (or reuses) the account, reconciles it, and measures its report.
    func run() throws(BenchError) -> ReportBenchmark {
        let stocktake = try BenchExecutable.stocktake()
        let chromium = try PageRendering.chromium()
        let work = try WorkFolder()
        defer { work.remove() }
        let root = data.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? work.path + "/data"
        let store = DatasetStore(root: root)
        let dataset = try store.dataset(for: parameters)
        StandardError.write("stocktake-bench: running \(stocktake) reconcile")
        let output = work.path + "/out"
        _ = try SingleAccountBenchmark.measure(
            stocktake, SingleAccountBenchmark.arguments(dataset, output: output), environment: [:],
            logs: work.path + "/logs")
        let record = try RunRecordDigest(path: output + "/run.json")
        let report = output + "/report.html"
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: report),
            let bytes = attributes[.size] as? Int
        else {
            throw .cannotRead(path: report, reason: "stocktake reconcile wrote no report.html")
        }
        StandardError.write("stocktake-bench: rendering report.html \(runs) times with \(chromium)")
        let rendering = try PageRendering.measure(page: report, runs: runs, chromium: chromium, work: work.path)
        return ReportBenchmark(
            dataFolder: dataset.folder, assets: record.assets, requestedFindings: findings,
            findings: record.discrepancies.values.reduce(0, +), reportBytes: bytes, rendering: rendering)
    }
}
