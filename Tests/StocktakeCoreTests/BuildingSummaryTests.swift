import Testing

@testable import StocktakeCore

@Suite("BuildingSummary: assets and findings per building")
struct BuildingSummaryTests {
    @Test func assetsAndFindingsAreCountedPerBuildingAcknowledgedOnesLeftOut() {
        var reconciliation = OutputFixture.reconciliation
        let unrecorded = FindingID(code: .unrecorded, key: "vt_tag=770001")
        reconciliation.ledger = FindingLedger(
            findings: reconciliation.discrepancies, previous: nil,
            acknowledgements: [unrecorded: Acknowledgement(id: unrecorded, note: "", by: "Dana")],
            asOf: OutputFixture.asOf)
        let rows = BuildingSummary.rows(
            assets: reconciliation.assets, devices: ReportDevice.devices(of: reconciliation),
            discrepancies: reconciliation.discrepancies, statuses: reconciliation.statuses,
            bills: [BuildingBill(building: "XYZ", totalCents: 5)])
        #expect(
            rows == [
                BuildingSummary(building: "BUR", assets: 3, errors: 1, warnings: 2, infos: 0),
                BuildingSummary(building: "XYZ", bill: BuildingBill(building: "XYZ", totalCents: 5)),
                BuildingSummary(building: nil, assets: 1, errors: 0, warnings: 0, infos: 0),
            ])
        let html = BuildingSummary.html(
            rows, names: BuildingTable([Building(code: "BUR", name: "Burruss Hall")]), showsBills: true)
        #expect(
            html.contains(
                "<tr><th scope=\"row\">BUR, Burruss Hall</th><td data-l=\"Assets\" class=\"number\">3</td>"
                    + "<td data-l=\"Errors\" class=\"number\">1</td><td data-l=\"Warnings\" class=\"number\">2</td>"
                    + "<td data-l=\"Info\" class=\"number\">0</td><td data-l=\"Billing total\" class=\"number\"></td></tr>"
            ))
        #expect(html.contains("<th scope=\"row\">XYZ</th>"))
        #expect(html.contains("<td data-l=\"Billing total\" class=\"number\">0.05</td>"))
        #expect(html.contains("<th scope=\"row\">No building</th>"))
        #expect(!BuildingSummary.html(rows, names: nil, showsBills: false).contains("Billing"))
    }
}
