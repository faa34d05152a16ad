/// One row of the report's per-building table: a building's assets, its findings by severity, and its billing total
/// when a source gives unit costs.
struct BuildingSummary: Sendable, Hashable {
    /// The building's code; `nil` for assets and findings without a building.
    var building: String?
    /// The building's assets and what they cost (`BillingTotals`); `nil` for a building only findings name.
    var totals: BillingTotals.BuildingTotal?
    /// Findings by severity, acknowledged ones left out (as in the report's header and `summary.txt`).
    var errors = 0
    var warnings = 0
    var infos = 0

    /// The rows, by building code, the row without a building last: one per line of `billing`, and one per building
    /// only the findings of `devices` name.
    static func rows(
        billing: BillingTotals, devices: [ReportDevice], discrepancies: [Discrepancy], statuses: [FindingStatus]
    ) -> [BuildingSummary] {
        var rows: [String?: BuildingSummary] = [:]
        for line in billing.buildings {
            let building = line.building.isEmpty ? nil : line.building
            rows[building] = BuildingSummary(building: building, totals: line)
        }
        for device in devices {
            var row = rows[device.building] ?? BuildingSummary(building: device.building)
            for index in device.findings where statuses[index].state != .acknowledged {
                switch discrepancies[index].severity {
                case .error: row.errors += 1
                case .warning: row.warnings += 1
                case .info: row.infos += 1
                }
            }
            rows[device.building] = row
        }
        return rows.values.sorted { lhs, rhs in
            guard let left = lhs.building else { return false }
            guard let right = rhs.building else { return true }
            return left < right
        }
    }

    /// The table's HTML; the billing column only when `showsBills`.
    static func html(_ rows: [BuildingSummary], names: BuildingTable?, showsBills: Bool) -> String {
        var page = "<table class=\"buildings\"><thead><tr><th scope=\"col\">Building</th>"
        page += "<th scope=\"col\">Assets</th><th scope=\"col\">Errors</th><th scope=\"col\">Warnings</th>"
        page += "<th scope=\"col\">Info</th>"
        if showsBills { page += "<th scope=\"col\">Billing total</th>" }
        page += "</tr></thead><tbody>\n"
        for row in rows {
            let name = row.building.flatMap { names?.building(code: $0)?.name }
            let title = row.building.map { code in name.map { "\(code), \($0)" } ?? code } ?? "No building"
            page += "<tr><th scope=\"row\">\(HTMLReport.escape(title))</th>"
            page += "<td data-l=\"Assets\" class=\"number\">\(grouped(row.totals?.assets ?? 0))</td>"
            page += "<td data-l=\"Errors\" class=\"number\">\(grouped(row.errors))</td>"
            page += "<td data-l=\"Warnings\" class=\"number\">\(grouped(row.warnings))</td>"
            page += "<td data-l=\"Info\" class=\"number\">\(grouped(row.infos))</td>"
            if showsBills {
                page += "<td data-l=\"Billing total\" class=\"number\">\(row.totals?.formattedTotal ?? "")</td>"
            }
            page += "</tr>\n"
        }
        page += "</tbody></table>\n"
        return page
    }
}
