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
            // Grouped in several runs at once, as a large account is, the rows come out the same.
            for runs in [2, 3, 7] {
                let grouped = AssetMembers(assetCount: assetCount, assetOfRecord: assetOfRecord, runs: runs)
                #expect(grouped.map { Array($0) } == expected, "\(runs) runs")
            }
        }
    }

    /// The runs cover every record of every source once, in order, and are about the same length.
    @Test func runsCoverEveryRecordOnceInOrder() {
        let assetOfRecord: [[Int32]] = [Array(repeating: 0, count: 10), [], Array(repeating: 0, count: 3), [0]]
        for count in 1...16 {
            let runs = AssetMembers.cut(assetOfRecord, into: count)
            #expect(runs.count == count)
            let covered = runs.flatMap { run in run.flatMap { part in part.records.map { (part.source, $0) } } }
            let all = assetOfRecord.indices.flatMap { source in assetOfRecord[source].indices.map { (source, $0) } }
            #expect(covered.map(\.0) == all.map(\.0) && covered.map(\.1) == all.map(\.1), "\(count) runs")
            let lengths = runs.map { run in run.reduce(0) { $0 + $1.records.count } }
            #expect(lengths.max()! - lengths.min()! <= 1, "\(count) runs: \(lengths)")
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
