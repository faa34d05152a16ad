/// `report.html`: the clerk's report, one self-contained page that reads offline and prints.
///
/// This first version lists the counts, every discrepancy grouped by code with its message and rows, and the
/// columns no field was found for.
public enum HTMLReport {
    /// Discrepancies listed per code; the rest are counted and left to `discrepancies.csv`, so the page stays
    /// readable and printable for an account with a hundred thousand findings.
    public static let rowsPerCode = 500

    /// The page's text.
    public static func html(_ reconciliation: Reconciliation, details: RunDetails) -> String {
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>Stocktake report: \(escape(details.account)), \(reconciliation.asOf)</title>
            <style>
            body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
            table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
            th, td { border: 1px solid #bbb; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }
            th { background: #eee; }
            .error { color: #a00; } .warning { color: #a60; } .info { color: #555; }
            td.number { text-align: right; }
            @media print { body { margin: 0; } h2 { page-break-before: auto; } }
            </style></head><body>
            <h1>Stocktake report: \(escape(details.account))</h1>
            <p>As of \(reconciliation.asOf); run started \(RunDetails.timestamp(details.started)).
            \(reconciliation.assets.count) assets: \(reconciliation.count(AssetStatus.ok)) ok,
            \(reconciliation.count(.missing)) missing, \(reconciliation.count(.unrecorded)) unrecorded,
            \(reconciliation.count(.typo)) typo, \(reconciliation.count(.conflict)) in conflict.</p>
            \(sinceLastRun(reconciliation))

            """
        page += "<h2>Counts</h2>\n<table><tr><th>Code</th><th>Severity</th><th>Count</th><th>Meaning</th></tr>\n"
        let statuses = reconciliation.statuses
        // Acknowledged findings are listed apart and counted under no code (DOMAIN.md "Findings across nights").
        var counts: [DiscrepancyCode: Int] = [:]
        for index in reconciliation.discrepancies.indices where statuses[index].state != .acknowledged {
            counts[reconciliation.discrepancies[index].code, default: 0] += 1
        }
        for code in DiscrepancyCode.allCases {
            guard let count = counts[code] else { continue }
            page += "<tr><td><a href=\"#\(code.rawValue)\">\(code.rawValue)</a></td>"
            page += "<td class=\"\(code.severity.rawValue)\">\(code.severity.rawValue)</td>"
            page += "<td class=\"number\">\(count)</td><td>\(escape(code.meaning))</td></tr>\n"
        }
        page += "</table>\n"
        for code in DiscrepancyCode.allCases where counts[code] != nil {
            page += "<h2 id=\"\(code.rawValue)\" class=\"\(code.severity.rawValue)\">\(code.rawValue)</h2>\n"
            page += "<table><tr><th>Id</th><th>State</th><th>VT tag</th><th>What to check</th><th>Rows</th></tr>\n"
            var listed = 0
            for index in reconciliation.discrepancies.indices
            where reconciliation.discrepancies[index].code == code && statuses[index].state != .acknowledged {
                listed += 1
                guard listed <= rowsPerCode else { continue }
                let discrepancy = reconciliation.discrepancies[index]
                let status = statuses[index]
                let note = status.note.isEmpty ? "" : " " + status.note
                page += "<tr><td>\(status.id)</td><td>\(status.state.rawValue)</td>"
                page += "<td>\(escape(discrepancy.vtTag?.description ?? ""))</td>"
                page += "<td>\(escape(discrepancy.message + note))</td>"
                page += "<td>\(escape(SourceLocation.listed(discrepancy.sources)))</td></tr>\n"
            }
            page += "</table>\n"
            if listed > rowsPerCode {
                page += "<p>\(listed - rowsPerCode) more \(code.rawValue) rows are listed in discrepancies.csv.</p>\n"
            }
        }
        page += acknowledged(reconciliation, statuses: statuses)
        page += resolved(reconciliation)
        page +=
            "<h2>Files read</h2>\n<table><tr><th>File</th><th>Role</th><th>Rows</th><th>Unmapped columns</th></tr>\n"
        for input in reconciliation.inputs {
            page += "<tr><td>\(escape(input.file.displayName))</td><td>\(input.file.role.rawValue)</td>"
            page +=
                "<td class=\"number\">\(input.rows)</td><td>\(escape(input.unmapped.joined(separator: ", ")))</td></tr>\n"
        }
        page += "</table>\n"
        let notes =
            reconciliation.inputs.flatMap { input in input.notes.map { "\(input.file.displayName): \($0)" } }
            + reconciliation.ledger.notes
        if !notes.isEmpty {
            page += "<h2>Notes</h2>\n<ul>\n" + notes.map { "<li>\(escape($0))</li>\n" }.joined() + "</ul>\n"
        }
        page += "</body></html>\n"
        return page
    }

    /// The paragraph saying what changed since the last run.
    private static func sinceLastRun(_ reconciliation: Reconciliation) -> String {
        let statuses = reconciliation.statuses
        let resolved = reconciliation.ledger.resolved
        let fixed = resolved.count(where: { $0.state == .fixedByPush })
        return "<p>Since the last run: \(grouped(statuses.count(where: { $0.state == .new }))) new, "
            + "\(grouped(statuses.count(where: { $0.state == .open }))) open, \(grouped(resolved.count)) resolved"
            + (fixed > 0 ? " (\(grouped(fixed)) fixed by the push)" : "") + ", "
            + "\(grouped(reconciliation.acknowledgedCount)) acknowledged (listed apart, not counted).</p>"
    }

    /// The acknowledged findings, apart from the others.
    private static func acknowledged(_ reconciliation: Reconciliation, statuses: [FindingStatus]) -> String {
        let indices = reconciliation.discrepancies.indices.filter { statuses[$0].state == .acknowledged }
        guard !indices.isEmpty else { return "" }
        var page = "<h2 id=\"acknowledged\">Acknowledged</h2>\n"
        page += "<table><tr><th>Id</th><th>Code</th><th>VT tag</th><th>Finding</th><th>Acknowledgement</th></tr>\n"
        for index in indices.prefix(rowsPerCode) {
            let discrepancy = reconciliation.discrepancies[index]
            page += "<tr><td>\(statuses[index].id)</td><td>\(discrepancy.code.rawValue)</td>"
            page += "<td>\(escape(discrepancy.vtTag?.description ?? ""))</td><td>\(escape(discrepancy.message))</td>"
            page += "<td>\(escape(statuses[index].note))</td></tr>\n"
        }
        page += "</table>\n"
        if indices.count > rowsPerCode {
            page +=
                "<p>\(indices.count - rowsPerCode) more acknowledged findings are listed in discrepancies.csv.</p>\n"
        }
        return page
    }

    /// The findings of the last run that are gone.
    private static func resolved(_ reconciliation: Reconciliation) -> String {
        let entries = reconciliation.ledger.resolved
        guard !entries.isEmpty else { return "" }
        var page = "<h2 id=\"resolved\">Resolved since the last run</h2>\n"
        page += "<table><tr><th>Id</th><th>Code</th><th>VT tag</th><th>First seen</th><th>How</th></tr>\n"
        for entry in entries.prefix(rowsPerCode) {
            page += "<tr><td>\(entry.id)</td><td>\(entry.code.rawValue)</td><td>\(escape(entry.vtTag))</td>"
            page += "<td>\(entry.firstSeen)</td><td>\(entry.state.rawValue)</td></tr>\n"
        }
        page += "</table>\n"
        if entries.count > rowsPerCode {
            page += "<p>\(entries.count - rowsPerCode) more resolved findings are listed in resolved.csv.</p>\n"
        }
        return page
    }

    /// Text made safe to place in HTML.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case 0x26: result.append(contentsOf: "&amp;".utf8)
            case 0x3C: result.append(contentsOf: "&lt;".utf8)
            case 0x3E: result.append(contentsOf: "&gt;".utf8)
            case 0x22: result.append(contentsOf: "&quot;".utf8)
            case 0x27: result.append(contentsOf: "&#39;".utf8)
            default: result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
