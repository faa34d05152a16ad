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

            """
        page += "<h2>Counts</h2>\n<table><tr><th>Code</th><th>Severity</th><th>Count</th><th>Meaning</th></tr>\n"
        let counts = reconciliation.countsByCode
        for code in DiscrepancyCode.allCases {
            guard let count = counts[code] else { continue }
            page += "<tr><td><a href=\"#\(code.rawValue)\">\(code.rawValue)</a></td>"
            page += "<td class=\"\(code.severity.rawValue)\">\(code.severity.rawValue)</td>"
            page += "<td class=\"number\">\(count)</td><td>\(escape(code.meaning))</td></tr>\n"
        }
        page += "</table>\n"
        for code in DiscrepancyCode.allCases where counts[code] != nil {
            page += "<h2 id=\"\(code.rawValue)\" class=\"\(code.severity.rawValue)\">\(code.rawValue)</h2>\n"
            page += "<table><tr><th>VT tag</th><th>What to check</th><th>Rows</th></tr>\n"
            var listed = 0
            for index in reconciliation.discrepancies.indices where reconciliation.discrepancies[index].code == code {
                listed += 1
                guard listed <= rowsPerCode else { continue }
                let discrepancy = reconciliation.discrepancies[index]
                page += "<tr><td>\(escape(discrepancy.vtTag?.description ?? ""))</td>"
                page += "<td>\(escape(discrepancy.message))</td>"
                page += "<td>\(escape(SourceLocation.listed(discrepancy.sources)))</td></tr>\n"
            }
            page += "</table>\n"
            if listed > rowsPerCode {
                page += "<p>\(listed - rowsPerCode) more \(code.rawValue) rows are listed in discrepancies.csv.</p>\n"
            }
        }
        page +=
            "<h2>Files read</h2>\n<table><tr><th>File</th><th>Role</th><th>Rows</th><th>Unmapped columns</th></tr>\n"
        for input in reconciliation.inputs {
            page += "<tr><td>\(escape(input.file.displayName))</td><td>\(input.file.role.rawValue)</td>"
            page +=
                "<td class=\"number\">\(input.rows)</td><td>\(escape(input.unmapped.joined(separator: ", ")))</td></tr>\n"
        }
        page += "</table>\n</body></html>\n"
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
