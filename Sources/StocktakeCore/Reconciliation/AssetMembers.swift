/// The rows of every asset, in source order, as ranges of one flat array.
///
/// A million assets of five rows each are two arrays here, where an array per asset meant a million allocations.
struct AssetMembers: RandomAccessCollection {
    /// The rows of all assets, asset after asset.
    private let references: [RecordReference]
    /// Where each asset's rows start in `references`; one more entry than there are assets.
    private let starts: [Int32]

    /// Groups kept records by asset: `assetOfRecord[source][record]` is the record's asset, or -1 for none.
    init(assetCount: Int, assetOfRecord: [[Int32]]) {
        var starts = [Int32](repeating: 0, count: assetCount + 1)
        for assets in assetOfRecord {
            for asset in assets where asset >= 0 { starts[Int(asset) + 1] += 1 }
        }
        for index in 0..<assetCount { starts[index + 1] += starts[index] }
        var next = starts
        var references = [RecordReference](
            repeating: RecordReference(source: 0, record: 0), count: Int(starts[assetCount]))
        // Records are visited in source order, so each asset's rows come out in source order without sorting. The
        // assets of a file's records are in no order, so in a large account each write waits for memory unless the
        // places of the records a few ahead are fetched first.
        let distance = Prefetch.keysAhead
        let prefetching = Prefetch.pays(bytes: references.count * MemoryLayout<RecordReference>.stride)
        references.withUnsafeMutableBufferPointer { references in
            next.withUnsafeMutableBufferPointer { next in
                for (source, assets) in assetOfRecord.enumerated() {
                    assets.withUnsafeBufferPointer { assets in
                        for (record, asset) in assets.enumerated() where asset >= 0 {
                            if prefetching, record + distance < assets.count,
                                case let upcoming = assets[record + distance],
                                upcoming >= 0, let base = references.baseAddress
                            {
                                Prefetch.line(at: base + Int(next[Int(upcoming)]))
                            }
                            references[Int(next[Int(asset)])] = RecordReference(source: source, record: record)
                            next[Int(asset)] += 1
                        }
                    }
                }
            }
        }
        self.references = references
        self.starts = starts
    }

    var startIndex: Int { 0 }
    var endIndex: Int { starts.count - 1 }

    /// The rows of `asset`, in source order.
    subscript(asset: Int) -> ArraySlice<RecordReference> {
        references[Int(starts[asset])..<Int(starts[asset + 1])]
    }
}
