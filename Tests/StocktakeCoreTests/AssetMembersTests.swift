import Testing

@testable import StocktakeCore

@Suite("AssetMembers: each asset's rows as a range of one buffer")
struct AssetMembersTests {
    @Test func groupsRecordsByAssetInSourceOrderAndSkipsUnplacedOnes() {
        let members = AssetMembers(assetCount: 4, assetOfRecord: [[1, 0, -1], [0, 3], [1]])
        #expect(members.count == 4)
        #expect(Array(members[0]) == [.init(source: 0, record: 1), .init(source: 1, record: 0)])
        #expect(Array(members[1]) == [.init(source: 0, record: 0), .init(source: 2, record: 0)])
        #expect(members[2].isEmpty)
        #expect(Array(members[3]) == [.init(source: 1, record: 1)])
    }

    /// Files of random sizes (shorter and longer than the distance rows are fetched ahead) whose records belong to
    /// random assets or to none, grouped as a dictionary of arrays would group them.
    @Test func agreesWithGroupingRecordByRecord() {
        var random = SeededRandom(seed: 90)
        for _ in 0..<50 {
            let assetCount = Int.random(in: 1...40, using: &random)
            let assetOfRecord = (0..<Int.random(in: 1...5, using: &random)).map { _ in
                (0..<Int.random(in: 0...60, using: &random)).map { _ in
                    Int32.random(in: -1..<Int32(assetCount), using: &random)
                }
            }
            var expected = Array(repeating: [RecordReference](), count: assetCount)
            for (source, assets) in assetOfRecord.enumerated() {
                for (record, asset) in assets.enumerated() where asset >= 0 {
                    expected[Int(asset)].append(RecordReference(source: source, record: record))
                }
            }
            let members = AssetMembers(assetCount: assetCount, assetOfRecord: assetOfRecord)
            #expect(members.map { Array($0) } == expected)
        }
    }

    @Test func noAssetsIsEmpty() {
        #expect(AssetMembers(assetCount: 0, assetOfRecord: [[-1]]).isEmpty)
    }

    /// Fetching ahead reads where an asset's rows start: it takes every asset, the last and those without rows
    /// included, and members without any row at all, and changes nothing.
    @Test func fetchingAheadTakesEveryAssetAndChangesNothing() {
        for assetOfRecord in [[[0, -1, 2, 2]], [[-1, -1]]] as [[[Int32]]] {
            let members = AssetMembers(assetCount: 3, assetOfRecord: assetOfRecord)
            let before = members.map { Array($0) }
            for asset in members.indices {
                members.prefetchStart(of: asset)
                members.prefetchRows(of: asset)
            }
            #expect(members.map { Array($0) } == before)
        }
    }
}
