/// Whether a run found exactly the discrepancies a generated account holds, judged as the acceptance tests judge
/// it: every expected row must be found, and every error or warning found must be expected.
///
/// An expected row matches a found one when their codes are equal and every non-empty identifying cell of the
/// expected row equals the found one's (an empty expected cell matches anything). Info-level findings
/// (`DUPLICATE_ROW`) are checked one way only: the expected ones must be found. Lookups go through an index on
/// (code, cell), so a million-asset account compares in well under a second.
struct FindingsComparison: Sendable {
    /// Expected rows no found row matches.
    var notFound: [Finding]
    /// Found errors and warnings no expected row matches.
    var notExpected: [Finding]
    /// The number of expected rows.
    var expectedCount: Int
    /// The number of found rows.
    var foundCount: Int

    /// Whether the findings equal the injected ones.
    var isEqual: Bool { notFound.isEmpty && notExpected.isEmpty }

    /// Compares `found` (a run's discrepancies) with `expected` (a generator's).
    init(expected: [Finding], found: [Finding]) {
        expectedCount = expected.count
        foundCount = found.count
        let foundIndex = CellIndex(found)
        notFound = expected.filter { row in
            !foundIndex.candidates(matching: row).contains { Self.matches(expected: row, found: found[$0]) }
        }
        let expectedIndex = CellIndex(expected)
        notExpected = found.filter { row in
            row.severity != "info"
                && !expectedIndex.candidates(matchedBy: row).contains {
                    Self.matches(expected: expected[$0], found: row)
                }
        }
    }

    /// Whether `expected` describes `found`.
    static func matches(expected: Finding, found: Finding) -> Bool {
        expected.code == found.code
            && zip(expected.cells, found.cells).allSatisfy { wanted, actual in wanted.isEmpty || wanted == actual }
    }

    /// At most `limit` lines saying what differs: `not found: …` for expected rows, then `not expected: …`.
    func differences(limit: Int) -> [String] {
        let lines =
            notFound.prefix(limit).map { "not found: \($0.label) (\($0.text))" }
            + notExpected.prefix(limit).map { "not expected: \($0.label) (\($0.text))" }
        return Array(lines.prefix(limit))
    }

    /// Findings indexed by code and each of their non-empty identifying cells.
    private struct CellIndex {
        struct Key: Hashable {
            var code: String
            var column: Int
            var value: String
        }

        /// Rows by (code, column, value) of every non-empty cell.
        var byCell: [Key: [Int]] = [:]
        /// Rows by (code, column, value) of their first non-empty cell only.
        var byFirstCell: [Key: [Int]] = [:]
        /// Rows whose identifying cells are all empty, by code.
        var withoutCells: [String: [Int]] = [:]
        /// Every row, by code.
        var byCode: [String: [Int]] = [:]

        init(_ rows: [Finding]) {
            for (index, row) in rows.enumerated() {
                byCode[row.code, default: []].append(index)
                var first = true
                for (column, value) in row.cells.enumerated() where !value.isEmpty {
                    let key = Key(code: row.code, column: column, value: value)
                    byCell[key, default: []].append(index)
                    if first { byFirstCell[key, default: []].append(index) }
                    first = false
                }
                if first { withoutCells[row.code, default: []].append(index) }
            }
        }

        /// Indexed rows that may be matched by the expected row `expected`: those sharing its first non-empty
        /// cell, or all of its code when it has none.
        func candidates(matching expected: Finding) -> [Int] {
            guard let column = expected.cells.firstIndex(where: { !$0.isEmpty }) else {
                return byCode[expected.code] ?? []
            }
            return byCell[Key(code: expected.code, column: column, value: expected.cells[column])] ?? []
        }

        /// Indexed (expected) rows that may match the found row `found`: those whose first non-empty cell `found`
        /// shares, and those of its code without cells.
        func candidates(matchedBy found: Finding) -> [Int] {
            var result = withoutCells[found.code] ?? []
            for (column, value) in found.cells.enumerated() where !value.isEmpty {
                result += byFirstCell[Key(code: found.code, column: column, value: value)] ?? []
            }
            return result
        }
    }
}
