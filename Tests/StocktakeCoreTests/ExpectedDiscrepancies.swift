import Foundation
import StocktakeCore

/// Compares what a reconciliation found with a generator's `expected.csv`.
///
/// An expected row matches a found discrepancy when the codes are equal and every non-empty expected column among
/// `vt_tag … expected` equals the found one. Every expected row must be found; every error- or warning-level
/// discrepancy must be expected.
struct ExpectedDiscrepancies {
    static let compared = ["vt_tag", "cns_number", "serial_number", "mac_address", "field", "value", "expected"]

    /// Expected rows as column → cell.
    var rows: [[String: String]]

    init(path: String) throws {
        var reader = try CSVReader(path: path)
        var header: [String] = []
        var rows: [[String: String]] = []
        try reader.forEachRecord { record in
            let cells = record.strings
            if header.isEmpty {
                header = cells
            } else {
                rows.append(
                    Dictionary(
                        uniqueKeysWithValues: zip(
                            header, cells + Array(repeating: "", count: max(0, header.count - cells.count)))))
            }
        }
        self.rows = rows
    }

    /// What did not match, as readable lines; empty when the reconciliation found exactly what was expected.
    func mismatches(in reconciliation: Reconciliation) -> [String] {
        let found = zip(reconciliation.discrepancies, reconciliation.statuses).map { discrepancy, status in
            Dictionary(
                uniqueKeysWithValues: zip(DiscrepancyTable.columns, DiscrepancyTable.row(discrepancy, status: status)))
        }
        func matches(_ expected: [String: String], _ actual: [String: String]) -> Bool {
            expected["code"] == actual["code"]
                && Self.compared.allSatisfy { column in
                    (expected[column] ?? "").isEmpty || expected[column] == actual[column]
                }
        }
        var problems: [String] = []
        for expected in rows where !found.contains(where: { matches(expected, $0) }) {
            problems.append("not found: \(expected.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key })")
        }
        for actual in found where actual["severity"] != "info" && !rows.contains(where: { matches($0, actual) }) {
            problems.append("not expected: \(actual["code"]!) \(actual["message"]!)")
        }
        return problems
    }
}
