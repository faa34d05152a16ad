import Foundation
import StocktakeCore

/// The text `stocktake-bench run` prints: a title, one aligned metric a line, and a one-line summary.
enum BenchmarkReport {
    /// The most differences printed (findings, and per output file).
    static let differenceLimit = 10

    /// The whole report, ending with the summary line.
    static func text(_ result: BenchmarkResult) -> String {
        title(result) + "\n" + table(result).text + "\n" + summary(result)
    }

    /// "stocktake-bench run: 1,000,000 assets × 1 account, seed 7, 7-digit tags, 7-digit CNS numbers".
    static func title(_ result: BenchmarkResult) -> String {
        let command = result.command
        let seeds =
            result.datasets.count == 1
            ? "seed \(command.seed)"
            : "\(result.datasets.count) datasets (seeds \(command.seed)–\(command.seed &+ UInt64(result.datasets.count - 1)))"
        return "stocktake-bench run: \(grouped(command.assets)) assets × \(counted(command.accounts, "account")), "
            + "\(seeds), \(command.tagDigits)-digit tags, \(command.cnsDigits)-digit CNS numbers"
    }

    /// The metrics, one a line.
    static func table(_ result: BenchmarkResult) -> MetricTable {
        var table = MetricTable()
        let measurement = result.measurement
        let command = result.command
        if result.datasets.count == 1 {
            let dataset = result.datasets[0]
            let kept = command.data == nil ? "generated, removed afterwards" : dataset.reused ? "reused" : "generated"
            table.add("data", "\(dataset.folder) (\(kept))")
        } else {
            let reused = result.datasets.filter(\.reused).count
            let folder = (result.datasets[0].folder as NSString).deletingLastPathComponent
            let count = result.datasets.count
            let kept =
                command.data == nil
                ? "\(count) datasets generated, removed afterwards"
                : reused == count
                    ? "all \(count) datasets reused"
                    : reused == 0
                        ? "\(count) datasets generated" : "\(reused) of \(count) datasets reused, the rest generated"
            table.add("data", "\(folder) (\(kept))")
        }
        table.add(
            "command",
            result.program
                + (command.accounts > 1 ? " over \(counted(command.accounts, "account")), one process each" : ""))
        if let threads = command.threads { table.add("threads", "STOCKTAKE_THREADS=\(threads)") }
        table.add(
            "input",
            "\(counted(result.inputFiles, "file")), \(counted(result.rows, "row")), "
                + Quantity.megabytes(result.inputBytes))
        table.add("wall", Quantity.seconds(measurement.wallSeconds))
        table.add(
            "CPU",
            "\(Quantity.seconds(measurement.cpuSeconds)) (user \(Quantity.seconds(measurement.userSeconds)), "
                + "system \(Quantity.seconds(measurement.systemSeconds)); "
                + String(format: "%.2f cores busy)", measurement.cpuSeconds / max(measurement.wallSeconds, 1e-9)))
        // Linux keeps a process's peak across fork and exec: a child started after this process generated data
        // reports the generator's peak if it was higher than its own.
        let generated = result.datasets.contains { !$0.reused }
        table.add(
            "peak RSS",
            Quantity.megabytes(measurement.peakResidentBytes) + (command.accounts > 1 ? " (largest process)" : "")
                + (generated
                    ? " (an upper bound: this run generated the data, and Linux counts the generator's peak in the "
                        + "child's; run again on the kept data to measure)" : ""))
        table.add("rows/s", Quantity.rate(Double(result.rows), per: measurement.wallSeconds))
        table.add("MB/s", Quantity.rate(Double(result.inputBytes) / 1e6, per: measurement.wallSeconds))
        table.add(
            "assets/s", Quantity.rate(Double(command.assets * command.accounts), per: measurement.wallSeconds))
        table.add(
            "µs/asset",
            String(format: "%.2f", measurement.wallSeconds * 1e6 / Double(command.assets * command.accounts)))
        let summed = command.accounts > 1 ? " (sum over accounts)" : ""
        for phase in result.phases {
            table.add("phase \(phase.name)", Quantity.seconds(phase.seconds) + summed)
        }
        table.add(
            "cat floor",
            "\(Quantity.seconds(result.floor.seconds)) (\(Quantity.megabytes(result.floor.bytes)) at "
                + "\(Quantity.rate(Double(result.floor.bytes) / 1e6, per: result.floor.seconds)) MB/s "
                + "from the page cache)")
        table.add("wall/floor", Quantity.ratio(measurement.wallSeconds, result.floor.seconds))
        addFindings(result, to: &table)
        if let reference = result.reference {
            if reference.comparison.isIdentical {
                table.add("reference", "outputs identical to \(reference.program)")
            } else {
                table.add("reference", "outputs DIFFER from \(reference.program):")
                table.note(reference.comparison.differences)
            }
            table.add(
                "reference wall",
                "\(Quantity.seconds(reference.measurement.wallSeconds)), "
                    + "\(Quantity.megabytes(reference.measurement.peakResidentBytes)) peak "
                    + "(new/reference \(Quantity.ratio(measurement.wallSeconds, reference.measurement.wallSeconds)))")
        }
        if let duckDB = result.duckDB {
            table.add(
                "DuckDB wall",
                "\(Quantity.seconds(duckDB.measurement.wallSeconds)), CPU "
                    + "\(Quantity.seconds(duckDB.measurement.cpuSeconds)), "
                    + "\(Quantity.megabytes(duckDB.measurement.peakResidentBytes)) peak (approximate SQL: six codes, "
                    + "no typos, conflicts or reports)")
            table.add(
                "stocktake/DuckDB",
                Quantity.ratio(measurement.wallSeconds, duckDB.measurement.wallSeconds) + " (wall over wall)")
            table.add("DuckDB rows", "\(grouped(duckDB.counts["rows"] ?? 0)) (stocktake \(grouped(result.rows)))")
            for code in DuckDBComparison.codes {
                table.add(
                    "DuckDB \(code)",
                    "\(grouped(duckDB.counts[code] ?? 0)) (stocktake \(grouped(result.counts[code] ?? 0)))")
            }
        }
        return table
    }

    private static func addFindings(_ result: BenchmarkResult, to table: inout MetricTable) {
        let differing = result.findings.filter { !$0.comparison.isEqual }
        if result.findings.count == 1, let only = result.findings.first {
            let comparison = only.comparison
            let counts = "\(grouped(comparison.expectedCount)) expected, \(grouped(comparison.foundCount)) found"
            if comparison.isEqual {
                table.add("findings", "equal to the injected ones (\(counts))")
            } else {
                table.add(
                    "findings",
                    "DIFFER: \(grouped(comparison.notFound.count)) not found, "
                        + "\(grouped(comparison.notExpected.count)) not expected (\(counts)):")
                table.note(comparison.differences(limit: differenceLimit))
            }
            return
        }
        let total = counted(result.findings.count, "account")
        if differing.isEmpty {
            table.add("findings", "equal to the injected ones in all \(total)")
            return
        }
        table.add("findings", "DIFFER in \(grouped(differing.count)) of \(total):")
        var notes: [String] = []
        for account in differing where notes.count < differenceLimit {
            notes += account.comparison.differences(limit: differenceLimit - notes.count).map {
                "\(account.account): \($0)"
            }
        }
        table.note(notes)
    }

    /// "result: 1,000,000 assets × 1 account in 53.92 s wall, …; findings equal".
    static func summary(_ result: BenchmarkResult) -> String {
        let command = result.command
        let measurement = result.measurement
        var parts = [
            "result: \(grouped(command.assets)) assets × \(counted(command.accounts, "account")) in "
                + "\(Quantity.seconds(measurement.wallSeconds)) wall, \(Quantity.seconds(measurement.cpuSeconds)) CPU, "
                + "\(Quantity.megabytes(measurement.peakResidentBytes)) peak, "
                + "\(Quantity.ratio(measurement.wallSeconds, result.floor.seconds)) the cat floor",
            result.findingsEqual ? "findings equal" : "findings DIFFER",
        ]
        if let reference = result.reference {
            parts.append(reference.comparison.isIdentical ? "outputs identical to the reference" : "outputs DIFFER")
        }
        if let duckDB = result.duckDB {
            parts.append("stocktake/DuckDB \(Quantity.ratio(measurement.wallSeconds, duckDB.measurement.wallSeconds))")
        }
        return parts.joined(separator: "; ")
    }
}
