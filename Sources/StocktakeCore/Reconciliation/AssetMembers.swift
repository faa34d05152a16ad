/// The rows of every asset, in source order, as ranges of one flat buffer.
///
/// A million assets of five rows each are one buffer and one array here, where an array per asset meant a million
/// allocations.
struct AssetMembers: RandomAccessCollection {
    /// The rows of all assets, asset after asset, in memory of their own: an asset's rows are a view of it, where a
    /// slice of an array retained the array. Merging and the per-asset checks take several views of every asset on
    /// all cores at once, and each retain and release of the one shared array was an atomic operation on a cache
    /// line the cores took from each other.
    private let storage: Storage
    /// Where each asset's rows start in the buffer; one more entry than there are assets.
    private let starts: [Int32]

    /// Groups kept records by asset: `assetOfRecord[source][record]` is the record's asset, or -1 for none.
    init(assetCount: Int, assetOfRecord: [[Int32]]) {
        var starts = [Int32](repeating: 0, count: assetCount + 1)
        for assets in assetOfRecord {
            for asset in assets where asset >= 0 { starts[Int(asset) + 1] += 1 }
        }
        for index in 0..<assetCount { starts[index + 1] += starts[index] }
        var next = starts
        let storage = Storage(count: Int(starts[assetCount]))
        let references = storage.references
        // Records are visited in source order, so each asset's rows come out in source order without sorting. The
        // assets of a file's records are in no order, so in a large account each write waits for memory unless the
        // places of the records a few ahead are fetched first.
        let distance = Prefetch.keysAhead
        let prefetching = Prefetch.pays(bytes: references.count * MemoryLayout<RecordReference>.stride)
        // Every place is written once: the counts above give each asset exactly as many places as it has rows.
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
                        (references.baseAddress! + Int(next[Int(asset)])).initialize(
                            to: RecordReference(source: source, record: record))
                        next[Int(asset)] += 1
                    }
                }
            }
        }
        self.storage = storage
        self.starts = starts
    }

    /// The buffer of every asset's rows, freed with the last copy of the members that refer to it.
    private final class Storage: @unchecked Sendable {
        let references: UnsafeMutableBufferPointer<RecordReference>

        /// Room for `count` rows, each to be initialized once.
        init(count: Int) {
            references = .allocate(capacity: count)
        }

        deinit {
            references.deallocate()
        }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { starts.count - 1 }

    /// Starts fetching where the rows of `asset` start, without waiting for it: `prefetchRows(of:)` reads it.
    @inline(__always)
    func prefetchStart(of asset: Int) {
        starts.withUnsafeBufferPointer { Prefetch.line(at: $0.baseAddress! + asset) }
    }

    /// Starts fetching the first rows of `asset`, without waiting for them; reads where they start, so that is
    /// best fetched first (`prefetchStart(of:)`).
    @inline(__always)
    func prefetchRows(of asset: Int) {
        if let base = storage.references.baseAddress { Prefetch.line(at: base + Int(starts[asset])) }
    }

    /// The rows of `asset`, in source order: valid while these members (or a copy of them) are.
    subscript(asset: Int) -> UnsafeBufferPointer<RecordReference> {
        let start = Int(starts[asset])
        return UnsafeBufferPointer(
            start: storage.references.baseAddress.map { $0 + start }, count: Int(starts[asset + 1]) - start)
    }
}
