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
        // Rows by code in a [String: Int] of positions, the row without a building apart: a dictionary keyed by
        // `String?` costs a search of the program's conformances the first time, longer than the rest.
        var rows: [BuildingSummary] = []
        var positions: [String: Int] = [:]
        var withoutBuilding: BuildingSummary?
        for line in billing.buildings {
            if line.building.isEmpty {
                withoutBuilding = BuildingSummary(building: nil, totals: line)
            } else {
                positions[line.building] = rows.count
                rows.append(BuildingSummary(building: line.building, totals: line))
            }
        }
        // Devices come by building: each building's row is looked up once, not once per device.
        var position = 0
        while position < devices.count {
            let building = devices[position].building
            var row: BuildingSummary
            if let building {
                row = positions[building].map { rows[$0] } ?? BuildingSummary(building: building)
            } else {
                row = withoutBuilding ?? BuildingSummary(building: nil)
            }
            while position < devices.count, devices[position].building == building {
                for index in devices[position].findings where statuses[index].state != .acknowledged {
                    switch discrepancies[index].severity {
                    case .error: row.errors += 1
                    case .warning: row.warnings += 1
                    case .info: row.infos += 1
                    }
                }
                position += 1
            }
            if let building {
                if let known = positions[building] {
                    rows[known] = row
                } else {
                    positions[building] = rows.count
                    rows.append(row)
                }
            } else {
                withoutBuilding = row
            }
        }
        rows.sort { $0.building! < $1.building! }
        if let withoutBuilding { rows.append(withoutBuilding) }
        return rows
    }

    /// The table's HTML; the billing column only when `showsBills`.
    static func html(_ rows: [BuildingSummary], names: BuildingTable?, showsBills: Bool) -> String {
        var page = HTMLBuffer()
        html(rows, names: names, showsBills: showsBills, into: &page)
        return page.text
    }

    /// Appends the table's HTML to `page`; the billing column only when `showsBills`.
    static func html(_ rows: [BuildingSummary], names: BuildingTable?, showsBills: Bool, into page: inout HTMLBuffer) {
        page.append("<table class=\"buildings\"><thead><tr><th scope=\"col\">Building</th>")
        page.append("<th scope=\"col\">Assets</th><th scope=\"col\">Errors</th><th scope=\"col\">Warnings</th>")
        page.append("<th scope=\"col\">Info</th>")
        if showsBills { page.append("<th scope=\"col\">Billing total</th>") }
        page.append("</tr></thead><tbody>\n")
        for row in rows {
            let name = row.building.flatMap { names?.building(code: $0)?.name }
            let title = row.building.map { code in name.map { "\(code), \($0)" } ?? code } ?? "No building"
            page.append("<tr><th scope=\"row\">")
            page.append(escaped: title)
            page.append("</th><td data-l=\"Assets\" class=\"number\">")
            page.append(grouped: row.totals?.assets ?? 0)
            page.append("</td><td data-l=\"Errors\" class=\"number\">")
            page.append(grouped: row.errors)
            page.append("</td><td data-l=\"Warnings\" class=\"number\">")
            page.append(grouped: row.warnings)
            page.append("</td><td data-l=\"Info\" class=\"number\">")
            page.append(grouped: row.infos)
            page.append("</td>")
            if showsBills {
                page.append("<td data-l=\"Billing total\" class=\"number\">")
                page.append(row.totals?.formattedTotal ?? "")
                page.append("</td>")
            }
            page.append("</tr>\n")
        }
        page.append("</tbody></table>\n")
    }
}
