import Testing

@testable import StocktakeCore

@Suite("AssetCounts: the assets of each status")
struct AssetCountsTests {
    @Test func eachStatusIsCountedAsReconciliationCountsIt() {
        let statuses: [AssetStatus] = [.ok, .missing, .ok, .unrecorded, .typo, .conflict, .ok, .missing]
        let assets = statuses.map { CleanedAsset(values: AssetValues(), status: $0, sources: []) }
        let counts = AssetCounts(assets)
        #expect(counts[.ok] == 3)
        #expect(counts[.missing] == 2)
        #expect(counts[.unrecorded] == 1)
        #expect(counts[.typo] == 1)
        #expect(counts[.conflict] == 1)
        let reconciliation = Reconciliation(assets: assets, discrepancies: [], inputs: [], asOf: OutputFixture.asOf)
        for status in [AssetStatus.ok, .missing, .unrecorded, .conflict, .typo] {
            #expect(counts[status] == reconciliation.count(status))
        }
        #expect(AssetCounts([])[.ok] == 0)
    }
}
