/// `summary.txt`: the few lines cron mails to the sysadmin and the clerk.
///
/// File names, column names, notes and push results come from the account's data, so their control characters are
/// escaped (`ControlCharacters`): a header cell holding a line break cannot add a line of its own.
public enum Summary {
    /// The file's text.
    public static func text(_ reconciliation: Reconciliation, details: RunDetails) -> String {
        var lines: [String] = []
        lines.append("stocktake: account \(safe(details.account)), as of \(reconciliation.asOf)")
        let rows = reconciliation.inputs.reduce(0) { $0 + $1.rows }
        lines.append(
            "Assets: \(reconciliation.assets.count) (\(reconciliation.count(AssetStatus.ok)) ok, "
                + "\(reconciliation.count(.missing)) missing, \(reconciliation.count(.unrecorded)) unrecorded, "
                + "\(reconciliation.count(.typo)) typo, \(reconciliation.count(.conflict)) in conflict), from \(counted(rows, "row")) in "
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
                lines.append("  \(safe(input.file.displayName)): \(input.unmapped.map(safe).joined(separator: ", "))")
            }
        }
        for input in reconciliation.inputs {
            for note in input.notes { lines.append("Note: \(safe(input.file.displayName)): \(safe(note))") }
        }
        lines.append(
            details.pushes.isEmpty
                ? "Pushed: nothing (local run)." : "Pushed: " + details.pushes.map(safe).joined(separator: "; "))
        lines.append("Report: \(safe(details.path(of: "report.html")))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Data-derived text made safe for one line.
    private static func safe(_ text: String) -> String {
        ControlCharacters.escaped(text)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
