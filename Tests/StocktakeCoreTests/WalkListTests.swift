import Testing

@testable import StocktakeCore

@Suite("WalkList: what to look for, room by room")
struct WalkListTests {
    @Test func aSmallSampleGivesOneListPerBuildingWithTheDevicesToLookFor() {
        var reconciliation = OutputFixture.reconciliation
        reconciliation.discrepancies.append(
            Discrepancy(code: .stale, vtTag: OutputFixture.tag(4512), sources: [], message: "Stale."))
        let devices = ReportDevice.devices(of: reconciliation)
        let lists = WalkList.lists(of: devices, in: reconciliation, statuses: reconciliation.statuses)
        #expect(lists.map(\.building) == ["BUR", nil])
        #expect(
            lists[0].items == [
                WalkList.Item(room: "101", label: "VT tag 004512", model: "AP-515", codes: [.stale]),
                WalkList.Item(room: "102", label: "VT tag 004513", model: "AP-515", codes: [.missing]),
                WalkList.Item(room: nil, label: "VT tag 004600", model: nil, codes: [.possibleTypo]),
            ])
        #expect(lists[1].items == [WalkList.Item(room: nil, label: "VT tag 770001", model: nil, codes: [.unrecorded])])
        let html = lists[0].html(buildingName: "Burruss Hall")
        #expect(
            html.hasPrefix(
                "<section class=\"walk\"><h3>Walk list: BUR, Burruss Hall</h3>\n<table class=\"walklist\"><thead>"))
        #expect(
            html.contains(
                "<tr><td>102<td>VT tag 004513 (AP-515)<td>MISSING<td><td></tr>\n"))
        #expect(lists[1].html(buildingName: nil).contains("<h3>Walk list: Building not known</h3>"))
    }

    @Test func devicesWithOnlyOfficeFindingsAreNotOnIt() {
        var reconciliation = OutputFixture.reconciliation
        reconciliation.discrepancies = [OutputFixture.discrepancies[2]]
        #expect(
            WalkList.lists(
                of: ReportDevice.devices(of: reconciliation), in: reconciliation, statuses: reconciliation.statuses
            ).isEmpty)
    }

    /// An acknowledged UNRECORDED (the clerk said why it stands) sends nobody to look for the device.
    @Test func anAcknowledgedFindingPutsNoDeviceOnIt() {
        let reconciliation = OutputFixture.reconciliationWithAnAcknowledgement
        let lists = WalkList.lists(
            of: ReportDevice.devices(of: reconciliation), in: reconciliation, statuses: reconciliation.statuses)
        #expect(lists.map(\.building) == ["BUR"])
    }
}
