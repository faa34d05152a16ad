import Testing

@testable import StocktakeCore

@Suite("AssetMembers: each asset's rows as a range of one array")
struct AssetMembersTests {
    @Test func groupsRecordsByAssetInSourceOrderAndSkipsUnplacedOnes() {
        let members = AssetMembers(assetCount: 4, assetOfRecord: [[1, 0, -1], [0, 3], [1]])
        #expect(members.count == 4)
        #expect(Array(members[0]) == [.init(source: 0, record: 1), .init(source: 1, record: 0)])
        #expect(Array(members[1]) == [.init(source: 0, record: 0), .init(source: 2, record: 0)])
        #expect(members[2].isEmpty)
        #expect(Array(members[3]) == [.init(source: 1, record: 1)])
    }

    @Test func noAssetsIsEmpty() {
        #expect(AssetMembers(assetCount: 0, assetOfRecord: [[-1]]).isEmpty)
    }
}
