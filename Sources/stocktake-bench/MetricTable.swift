/// The benchmark's report: one metric a line, labels padded so the values line up, and indented notes under a
/// metric (what differs, first few).
struct MetricTable {
    private var lines: [(label: String, value: String)] = []

    /// Adds the metric `label` with `value`.
    mutating func add(_ label: String, _ value: String) {
        lines.append((label, value))
    }

    /// Adds `notes` under the last metric, indented further, without a label.
    mutating func note(_ notes: [String]) {
        for note in notes { lines.append(("", note)) }
    }

    /// The lines, each indented by two spaces, labels padded to the longest plus two spaces; notes are indented
    /// four spaces past the value column.
    var text: String {
        let width = lines.map(\.label.count).max() ?? 0
        return lines.map { line in
            let label = line.label.isEmpty ? String(repeating: " ", count: width + 4) : line.label.padding(width)
            return "  " + label + "  " + line.value
        }.joined(separator: "\n")
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
