/// `summary.txt`: the few lines cron mails to the sysadmin and the clerk.
///
/// At most `maximumLines` lines of at most `maximumWidth` characters: what changed since the last run, the worst
/// new findings first, and counts of what the report lists in full (unmapped columns, notes). File names, column
/// names, notes and push results come from the account's data, so their control characters are escaped
/// (`ControlCharacters`): a header cell holding a line break cannot add a line of its own.
public enum Summary {
    /// The most lines the file has.
    public static let maximumLines = 15
    /// The most characters a line has; a longer one is cut and ends with `…`.
    public static let maximumWidth = 200

    /// The file's text.
    public static func text(_ reconciliation: Reconciliation, details: RunDetails) -> String {
        var head: [String] = []
        head.append("stocktake: account \(safe(details.account)), as of \(reconciliation.asOf)")
        let rows = reconciliation.inputs.reduce(0) { $0 + $1.rows }
        let assets = AssetCounts(reconciliation.assets)
        head.append(
            "\(counted(reconciliation.assets.count, "asset")): \(grouped(assets[.ok])) ok, "
                + "\(grouped(assets[.missing])) missing, "
                + "\(grouped(assets[.unrecorded])) unrecorded, \(grouped(assets[.typo])) "
                + "typo, \(grouped(assets[.conflict])) in conflict; \(counted(rows, "row")) in "
                + "\(counted(reconciliation.inputs.count, "file")).")
        let statuses = reconciliation.statuses
        let newCount = statuses.count(where: { $0.state == .new })
        let resolved = reconciliation.ledger.resolved
        let fixed = resolved.count(where: { $0.state == .fixedByPush })
        head.append(
            "Since the last run: \(grouped(newCount)) new, "
                + "\(grouped(statuses.count(where: { $0.state == .open }))) open, \(grouped(resolved.count)) resolved"
                + (fixed > 0 ? " (\(grouped(fixed)) fixed by the push)" : "")
                + ", \(grouped(reconciliation.acknowledgedCount)) acknowledged.")
        head.append(
            "Findings: \(counted(reconciliation.count(Severity.error), "error")), "
                + "\(counted(reconciliation.count(.warning), "warning")), \(grouped(reconciliation.count(.info))) info"
                + (reconciliation.acknowledgedCount > 0 ? " (acknowledged ones not counted)." : "."))

        var tail: [String] = []
        let unmapped = reconciliation.inputs.reduce(0) { $0 + $1.unmapped.count }
        if unmapped > 0 {
            let files = reconciliation.inputs.count(where: { !$0.unmapped.isEmpty })
            tail.append(
                "Unmapped columns: \(grouped(unmapped)) in \(counted(files, "file")) (listed in the report; map them "
                    + "if they matter).")
        }
        let notes = reconciliation.inputs.reduce(0) { $0 + $1.notes.count } + reconciliation.ledger.notes.count
        if notes > 0 { tail.append("Notes: \(grouped(notes)) (listed in the report).") }
        if !details.simulation.isEmpty { tail.append(rehearsal(details.simulation)) }
        tail.append(
            details.pushes.isEmpty
                ? "Pushed: nothing (local run)." : "Pushed: " + details.pushes.map(safe).joined(separator: "; "))
        tail.append("Report: \(safe(details.path(of: "report.html")))")

        var lines = head
        let newFindings = reconciliation.discrepancies.indices.filter { statuses[$0].state == .new }
        if !newFindings.isEmpty {
            // Findings are listed most severe first already.
            let room = maximumLines - head.count - tail.count - 1
            let shown = newFindings.count <= room ? newFindings.count : room - 1
            lines.append("New findings, worst first:")
            for index in newFindings.prefix(shown) {
                let finding = reconciliation.discrepancies[index]
                lines.append("  \(statuses[index].id) \(finding.code.rawValue): \(safe(finding.message))")
            }
            if shown < newFindings.count {
                lines.append("  … and \(grouped(newFindings.count - shown)) more new in discrepancies.csv.")
            }
        }
        lines += tail
        return lines.map(fitted).joined(separator: "\n") + "\n"
    }

    /// "Rehearsal: simulated failures push (--simulate-failure), upload (testFailureMode); nothing reached a
    /// server for them.": the line of a run that simulated failures.
    static func rehearsal(_ simulation: FailureSimulation) -> String {
        let kinds = simulation.kinds.map { kind in
            let origin = simulation.origins[kind] == .account ? "testFailureMode" : "--simulate-failure"
            return "\(kind.rawValue) (\(origin))"
        }
        return "Rehearsal: simulated failures \(kinds.joined(separator: ", ")); nothing reached a server for them."
    }

    /// A line cut to `maximumWidth` characters.
    static func fitted(_ line: String) -> String {
        line.count <= maximumWidth ? line : String(line.prefix(maximumWidth - 1)) + "…"
    }

    /// Data-derived text made safe for one line.
    private static func safe(_ text: String) -> String {
        ControlCharacters.escaped(text)
    }
}
