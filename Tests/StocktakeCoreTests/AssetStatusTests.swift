import Testing

@testable import StocktakeCore

@Suite("AssetStatus: the status column of cleaned.csv")
struct AssetStatusTests {
    @Test func statusNamesAreTheDocumentedOnes() {
        let statuses: [AssetStatus] = [.ok, .missing, .unrecorded, .conflict, .typo]
        #expect(statuses.map(\.rawValue) == ["ok", "missing", "unrecorded", "conflict", "typo"])
        #expect(AssetStatus(rawValue: "OK") == nil)
    }
}
