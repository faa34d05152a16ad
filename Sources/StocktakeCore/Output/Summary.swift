/// `summary.txt`: the few lines cron mails to the sysadmin and the clerk.
public enum Summary {
    /// The file's text.
    public static func text(_ reconciliation: Reconciliation, details: RunDetails) -> String {
        var lines: [String] = []
        lines.append("stocktake: account \(details.account), as of \(reconciliation.asOf)")
        let rows = reconciliation.inputs.reduce(0) { $0 + $1.rows }
        lines.append(
            "Assets: \(reconciliation.assets.count) (\(reconciliation.count(AssetStatus.ok)) ok, "
                + "\(reconciliation.count(.missing)) missing, \(reconciliation.count(.unrecorded)) unrecorded, "
                + "\(reconciliation.count(.conflict)) in conflict), from \(counted(rows, "row")) in "
                + "\(counted(reconciliation.inputs.count, "file")).")
        lines.append(
            "Discrepancies: \(counted(reconciliation.count(Severity.error), "error")), "
                + "\(counted(reconciliation.count(.warning), "warning")), \(reconciliation.count(.info)) info.")
        let counts = reconciliation.countsByCode
        for code in DiscrepancyCode.allCases {
            guard let count = counts[code] else { continue }
            let name = code.rawValue + String(repeating: " ", count: max(1, 18 - code.rawValue.count))
            lines.append("  \(name)\(String(count).leftPadded(to: 6))  \(code.severity.rawValue)")
        }
        let unmapped = reconciliation.inputs.filter { !$0.unmapped.isEmpty }
        if !unmapped.isEmpty {
            lines.append("Unmapped columns (add them to the column mapping if they matter):")
            for input in unmapped {
                lines.append("  \(input.file.displayName): \(input.unmapped.joined(separator: ", "))")
            }
        }
        for input in reconciliation.inputs {
            for note in input.notes { lines.append("Note: \(input.file.displayName): \(note)") }
        }
        lines.append(
            details.pushes.isEmpty
                ? "Pushed: nothing (local run)." : "Pushed: " + details.pushes.joined(separator: "; "))
        lines.append("Report: \(details.path(of: "report.html"))")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
