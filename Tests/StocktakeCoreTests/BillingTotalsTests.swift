import Testing

@testable import StocktakeCore

@Suite("BillingTotals: what each building's assets cost")
struct BillingTotalsTests {
    static func asset(_ tag: UInt64, _ building: String?, _ cost: String?) -> CleanedAsset {
        var values = AssetValues()
        values.vtTag = VTTag(number: tag, digits: 6)
        values.building = building
        values.cost = cost.flatMap { UnitCost.normalize($0).value }
        return CleanedAsset(values: values, status: tag == 5 ? .missing : .ok, sourceList: "central.csv")
    }

    @Test func eachBuildingSumsItsCostsAndCountsTheAssetsWithoutOne() {
        var reconciliation = Reconciliation(
            assets: [
                Self.asset(1, "TORG", "$895.00"), Self.asset(2, "BUR", "$1,195.00"), Self.asset(3, "TORG", "545"),
                Self.asset(4, "TORG", nil), Self.asset(5, "BUR", "0.99"), Self.asset(6, nil, "10"),
                Self.asset(7, nil, nil),
            ],
            discrepancies: [], inputs: [], asOf: OutputFixture.asOf)
        reconciliation.buildings = BuildingTable([Building(code: "TORG", name: "Torgersen Hall")])
        let totals = BillingTotals(reconciliation)
        // By hand: TORG 895.00 + 545.00 = 1440.00 over 2 of 3 assets; BUR 1195.00 + 0.99 (a missing asset still
        // counts) = 1195.99; no building: 10.00 over 1 of 2.
        #expect(
            totals.buildings == [
                .init(building: "BUR", name: "", assets: 2, costedAssets: 2, totalCents: 119_599),
                .init(building: "TORG", name: "Torgersen Hall", assets: 3, costedAssets: 2, totalCents: 144_000),
                .init(building: "", name: "", assets: 2, costedAssets: 1, totalCents: 1_000),
            ])
        #expect(totals.buildings.map(\.uncostedAssets) == [0, 1, 1])
        #expect(totals.buildings.map(\.total.description) == ["1195.99", "1440.00", "10.00"])
        #expect(totals.overall == .init(building: "", name: "", assets: 7, costedAssets: 5, totalCents: 264_599))
    }

    @Test func noAssetsMakeNoLines() {
        let totals = BillingTotals(Reconciliation(assets: [], discrepancies: [], inputs: [], asOf: OutputFixture.asOf))
        #expect(totals.buildings == [])
        #expect(totals.overall.assets == 0 && totals.overall.totalCents == 0)
    }

    @Test func aSumPastTheLargestNumberOfCentsStopsThere() {
        var huge = Self.asset(1, "TORG", nil)
        huge.values.cost = UnitCost(cents: Int64.max - 1)
        var more = Self.asset(2, "TORG", nil)
        more.values.cost = UnitCost(cents: 5)
        let totals = BillingTotals(
            Reconciliation(assets: [huge, more], discrepancies: [], inputs: [], asOf: OutputFixture.asOf))
        #expect(totals.buildings.map(\.totalCents) == [Int64.max])
        #expect(totals.buildings.map(\.costedAssets) == [2])
    }

    @Test(arguments: [
        (Int64(0), 0, "0.00"), (5, 0, "0.05"), (1_234_567_89, 0, "1,234,567.89"), (100, 3, "1.00 (3 without a cost)"),
        (Int64.max, 0, "92,233,720,368,547,758.07"),
    ])
    func aTotalIsShownInDollarsAndCentsWithTheAssetsItLeavesOut(cents: Int64, uncosted: Int, text: String) {
        let line = BillingTotals.BuildingTotal(
            building: "BUR", name: "", assets: 10 + uncosted, costedAssets: 10, totalCents: cents)
        #expect(line.formattedTotal == text)
    }
}
