import Foundation
import StocktakeCore

/// One row of a `discrepancies.csv` a run wrote, or of a generator's `expected.csv`, reduced to what the
/// findings comparison looks at.
struct Finding: Sendable, Hashable {
    /// The columns a finding is identified by, after its code.
    static let identifyingColumns = [
        "vt_tag", "cns_number", "serial_number", "mac_address", "field", "value", "expected",
    ]

    /// `MISSING`, `DUPLICATE_TAG`, …
    var code: String
    /// `error`, `warning` or `info`.
    var severity: String
    /// The cells of ``identifyingColumns``, in that order; empty when the file has no such cell.
    var cells: [String]
    /// What a person reads: the run's message, or the generator's note.
    var text: String

    /// The finding's code and non-empty identifying cells, `DUPLICATE_TAG vt_tag=0012345`.
    var label: String {
        let named = zip(Self.identifyingColumns, cells).filter { !$0.1.isEmpty }.map { "\($0.0)=\($0.1)" }
        return ([code] + named).joined(separator: " ")
    }

    /// The rows of the findings file at `path` (`discrepancies.csv` or `expected.csv`): a header naming at least
    /// `code`, then one finding a row. The text is the `message` column, or else the `note` column.
    static func read(path: String) throws(BenchError) -> [Finding] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .cannotRead(path: path, reason: "it does not exist")
        }
        var findings: [Finding] = []
        var columns: (code: Int, severity: Int?, cells: [Int?], text: Int?)?
        do {
            var reader = try CSVReader(path: path)
            try reader.forEachRecord { record in
                guard !record.isBlank else { return }
                let strings = record.strings
                guard let known = columns else {
                    guard let code = strings.firstIndex(of: "code") else {
                        throw BenchError.cannotRead(path: path, reason: "its header has no code column")
                    }
                    columns = (
                        code, strings.firstIndex(of: "severity"),
                        identifyingColumns.map { strings.firstIndex(of: $0) },
                        strings.firstIndex(of: "message") ?? strings.firstIndex(of: "note")
                    )
                    return
                }
                func cell(_ index: Int?) -> String {
                    guard let index, index < strings.count else { return "" }
                    return strings[index]
                }
                findings.append(
                    Finding(
                        code: cell(known.code), severity: cell(known.severity), cells: known.cells.map(cell),
                        text: cell(known.text)))
            }
        } catch let error as BenchError {
            throw error
        } catch {
            throw .cannotRead(path: path, reason: "it is not a readable CSV file (\(error))")
        }
        guard columns != nil else { throw .cannotRead(path: path, reason: "it is empty") }
        return findings
    }
}
