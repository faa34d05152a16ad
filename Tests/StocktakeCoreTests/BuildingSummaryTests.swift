import Testing

@testable import StocktakeCore

@Suite("BuildingSummary: assets and findings per building")
struct BuildingSummaryTests {
    @Test func assetsAndFindingsAreCountedPerBuildingAcknowledgedOnesLeftOut() throws {
        var reconciliation = OutputFixture.reconciliationWithAnAcknowledgement
        let index = try #require(reconciliation.assets.firstIndex { $0.values.building == "BUR" })
        reconciliation.assets[index].values.building = "XYZ"
        reconciliation.assets[index].values.cost = UnitCost(cents: 5)
        let billing = BillingTotals(reconciliation)
        let rows = BuildingSummary.rows(
            billing: billing, devices: ReportDevice.devices(of: reconciliation),
            discrepancies: reconciliation.discrepancies, statuses: reconciliation.statuses)
        // One BUR asset moved to XYZ, and its warning with it.
        #expect(rows.map(\.building) == ["BUR", "XYZ", nil])
        #expect(rows.map { $0.totals?.assets } == [2, 1, 1])
        #expect(rows.map(\.totals) == billing.buildings)
        #expect(rows.map { [$0.errors, $0.warnings, $0.infos] } == [[1, 1, 0], [0, 1, 0], [0, 0, 0]])
        let html = BuildingSummary.html(
            rows, names: BuildingTable([Building(code: "BUR", name: "Burruss Hall")]), showsBills: true)
        #expect(
            html.contains(
                "<tr><th scope=\"row\">BUR, Burruss Hall</th><td data-l=\"Assets\" class=\"number\">2</td>"
                    + "<td data-l=\"Errors\" class=\"number\">1</td><td data-l=\"Warnings\" class=\"number\">1</td>"
                    + "<td data-l=\"Info\" class=\"number\">0</td><td data-l=\"Billing total\" class=\"number\">0.00 (2 without a "
                    + "cost)</td></tr>"
            ))
        #expect(html.contains("<th scope=\"row\">XYZ</th>"))
        #expect(html.contains("<td data-l=\"Billing total\" class=\"number\">0.05</td>"))
        #expect(html.contains("<th scope=\"row\">No building</th>"))
        #expect(!BuildingSummary.html(rows, names: nil, showsBills: false).contains("Billing"))
    }
}
