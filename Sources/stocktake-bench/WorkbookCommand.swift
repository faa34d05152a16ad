import Foundation
import StocktakeCore
import StocktakeGenerator

/// `stocktake-bench workbook [--rows N] [--seed S] [--runs K] [--data DIR]`
///
/// Measures how fast stocktake reads one large `.xlsx` sheet, against the same sheet as CSV (see ``usage``).
struct WorkbookCommand {
    /// The command's usage text.
    static let usage = """
        usage: stocktake-bench workbook [--rows N] [--seed S] [--runs K] [--data DIR]

        Generates an account of N assets (outside the timing) and saves its central sheet, N data rows, as a
        one-sheet .xlsx workbook with XlsxWriter (python3-xlsxwriter), as a clerk's workbook holds it: shared
        strings, tags and other whole numbers as number cells, dates as date cells. Then it runs
        'stocktake inspect' on the workbook and on the CSV, K times each, exactly as users run it, and prints
        the median wall time, CPU time, rows/s and peak RSS of each, the peak RSS against the workbook's
        unzipped size, and whether both were read alike: the same rows, column mapping and problems.

        options:
          --rows N     data rows of the sheet (default 200000, at least 100)
          --seed S     seed of the generated account (default 7)
          --runs K     runs of each reading; the median is printed (default 3)
          --data DIR   keep the generated account and workbook in DIR and reuse them (as 'run --data')
          -h, --help   show this help

        Exit status: 0 both readings agree, 1 they do not (what differs is printed), 64 bad usage,
        69 a program is missing or failed (python3-xlsxwriter: 'make bench-deps'), 73 data cannot be written.
        Times never make it fail.
        """

    /// The reading the issue sets as the target, in seconds.
    static let targetSeconds = 2.0

    var rows = 200_000
    var seed = RunCommand.defaultSeed
    var runs = 3
    var data: String?

    /// Parses the arguments after `workbook`; `nil` when help was asked for.
    static func parse(_ arguments: [String]) throws(UsageError) -> WorkbookCommand? {
        var command = WorkbookCommand()
        guard
            let pairs = try UsageError.pairs(
                arguments, options: ["--rows", "--seed", "--runs", "--data"], of: "workbook")
        else { return nil }
        for (option, value) in pairs {
            switch option {
            case "--rows": command.rows = try UsageError.wholeNumber(value, of: option, atLeast: 100)
            case "--seed": command.seed = try UsageError.seed(value)
            case "--runs": command.runs = try UsageError.wholeNumber(value, of: option, atLeast: 1)
            default: command.data = value
            }
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
            print(result.text)
            return result.agrees ? 0 : 1
        } catch {
            StandardError.write("stocktake-bench: \(error.description)")
            return error.exitStatus
        }
    }

    /// Generates (or reuses) the account and its workbook, and measures both readings.
    func run() throws(BenchError) -> WorkbookBenchmark {
        let stocktake = try BenchExecutable.stocktake()
        let python = try WorkbookProducer.python()
        let work = try WorkFolder()
        defer { work.remove() }
        let root = data.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? work.path + "/data"
        let store = DatasetStore(root: root)
        let parameters = DatasetParameters(
            assets: rows, seed: seed, tagDigits: RunCommand.digits(for: rows),
            cnsDigits: RunCommand.digits(for: rows), asOf: GeneratorOptions(assets: rows, seed: seed).asOf)
        let dataset = try store.dataset(for: parameters)
        let workbook = dataset.folder + "/central.xlsx"
        if !FileManager.default.fileExists(atPath: workbook) {
            StandardError.write("stocktake-bench: saving central.csv as central.xlsx with XlsxWriter")
            try WorkbookProducer.write(csv: dataset.central, to: workbook, python: python)
        }
        let csvReading = try WorkbookReading.measure(
            stocktake: stocktake, file: dataset.central, runs: runs, work: work.path)
        let workbookReading = try WorkbookReading.measure(
            stocktake: stocktake, file: workbook, runs: runs, work: work.path)
        return WorkbookBenchmark(
            workbook: workbook, workbookBytes: WorkbookProducer.size(of: workbook),
            unzippedBytes: try WorkbookProducer.unzippedSize(of: workbook), runs: runs, csv: csvReading,
            xlsx: workbookReading)
    }
}
