import Testing

@testable import StocktakeCore

@Suite("AssetStatus: the status column of cleaned.csv")
struct AssetStatusTests {
    @Test func statusNamesAreTheDocumentedOnes() {
        let statuses: [AssetStatus] = [.ok, .missing, .unrecorded, .conflict]
        #expect(statuses.map(\.rawValue) == ["ok", "missing", "unrecorded", "conflict"])
        #expect(AssetStatus(rawValue: "OK") == nil)
    }
}
