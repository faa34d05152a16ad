import Foundation
import StocktakeCore

/// `stocktake inspect --json` run on one file several times: the median run's costs, and what it read.
struct WorkbookReading: Sendable, Equatable {
    /// The median wall time's run (peak memory is the largest of all runs).
    var measurement: ProcessMeasurement
    /// The data rows read.
    var rows: Int
    /// What the reading found that both files must agree on: the column mapping, the unmapped columns and each
    /// problem's sentence (their line numbers are left out: a CSV cell may span lines, a sheet's cannot).
    var mapping: [String: String]
    var unmapped: [String]
    var problems: [String]

    /// Runs `stocktake inspect --json FILE` `runs` times, its output and errors in `work`.
    static func measure(stocktake: String, file: String, runs: Int, work: String) throws(BenchError)
        -> WorkbookReading
    {
        let output = work + "/inspect.json"
        let errors = work + "/inspect.err"
        var measurements: [ProcessMeasurement] = []
        for _ in 0..<runs {
            let process = MeasuredProcess(
                program: stocktake, arguments: ["inspect", "--json", file], standardOutput: output,
                standardError: errors)
            let (outcome, measurement) = try process.run()
            guard outcome.succeeded else {
                throw .programFailed(program: "stocktake inspect", outcome: outcome, log: LogTail.read(errors))
            }
            measurements.append(measurement)
        }
        let data = FileManager.default.contents(atPath: output) ?? Data()
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let rows = (object["rowCount"] as? NSNumber)?.intValue
        else {
            throw .cannotRead(path: output, reason: "stocktake inspect printed no JSON report")
        }
        var median = measurements.sorted { $0.wallSeconds < $1.wallSeconds }[measurements.count / 2]
        median.peakResidentBytes = measurements.map(\.peakResidentBytes).max() ?? 0
        return WorkbookReading(
            measurement: median, rows: rows, mapping: object["mapping"] as? [String: String] ?? [:],
            unmapped: object["unmapped"] as? [String] ?? [],
            problems: (object["problems"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String })
    }

    /// What differs between this reading and `other`, as sentences; empty when they agree.
    func differences(from other: WorkbookReading) -> [String] {
        var differences: [String] = []
        if rows != other.rows { differences.append("rows: \(grouped(rows)) against \(grouped(other.rows))") }
        if mapping != other.mapping {
            differences.append("the column mapping differs: \(mapping) against \(other.mapping)")
        }
        if unmapped != other.unmapped { differences.append("unmapped columns: \(unmapped) against \(other.unmapped)") }
        if problems != other.problems {
            let first = zip(problems, other.problems).first { $0 != $1 }
            differences.append(
                "problems: \(problems.count) against \(other.problems.count)"
                    + (first.map { "; first differing: \"\($0.0)\" against \"\($0.1)\"" } ?? ""))
        }
        return differences
    }
}
