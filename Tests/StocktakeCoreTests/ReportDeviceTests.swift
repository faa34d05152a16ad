import Testing

@testable import StocktakeCore

@Suite("ReportDevice: one device, one entry")
struct ReportDeviceTests {
    @Test func findingsAreGroupedByDeviceAndPlacedFromTheAssetOrTheFinding() {
        var reconciliation = OutputFixture.reconciliation
        let serial = SerialNumber(canonical: "CNF123")
        // A shared serial whose first asset holder is 004512; a tag-less device seen by its serial twice.
        reconciliation.discrepancies += [
            Discrepancy(
                code: .sharedSerial, serialNumber: serial, sources: [],
                detail: .holders(
                    key: "CNF123",
                    [
                        FindingHolder(
                            vtTag: OutputFixture.tag(999), serialNumber: serial, macAddress: nil, cnsNumber: nil,
                            rows: []),
                        FindingHolder(
                            vtTag: OutputFixture.tag(4512), serialNumber: serial, macAddress: nil, cnsNumber: nil,
                            rows: []),
                    ], stray: [])),
            Discrepancy(code: .noTag, serialNumber: SerialNumber(canonical: "ZZ1"), sources: [], message: "No tag."),
            Discrepancy(
                code: .invalidValue, serialNumber: SerialNumber(canonical: "ZZ1"), sources: [], message: "Bad MAC."),
            Discrepancy(
                code: .missing, vtTag: OutputFixture.tag(123), sources: [],
                detail: .missing(central: [], building: "TOR", room: "7")),
        ]
        let devices = ReportDevice.devices(of: reconciliation)
        let labels = devices.map(\.label)
        #expect(
            labels == [
                "VT tag 004512", "VT tag 004513", "VT tag 004600", "VT tag 000123", "VT tag 770001", "Serial ZZ1",
            ])
        let first = devices[0]
        #expect(first.building == "BUR")
        #expect(first.room == "101")
        #expect(first.model == "AP-515")
        #expect(first.findings.map { reconciliation.discrepancies[$0].code } == [.sharedSerial, .fieldConflict])
        // Without an asset, the MISSING finding's building and room place it.
        #expect(devices[3].building == "TOR")
        #expect(devices[3].room == "7")
        #expect(devices[5].findings.map { reconciliation.discrepancies[$0].code } == [.noTag, .invalidValue])
        #expect(devices[5].building == nil)
        // Every finding is on exactly one device.
        #expect(devices.flatMap(\.findings).sorted() == Array(reconciliation.discrepancies.indices))
    }

    @Test func aFindingWithoutIdentifiersStandsAlone() {
        var reconciliation = OutputFixture.reconciliation
        reconciliation.discrepancies = [
            Discrepancy(code: .duplicateRow, sources: [SourceLocation(file: "a.csv", row: 4)], message: "Again."),
            Discrepancy(code: .duplicateRow, sources: [SourceLocation(file: "a.csv", row: 9)], message: "Again."),
        ]
        #expect(ReportDevice.devices(of: reconciliation).map(\.label) == ["Row a.csv row 4", "Row a.csv row 9"])
    }
}
