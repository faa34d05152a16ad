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
    ///
    /// The records, all sources one after the other, are cut into runs grouped on cores of their own, none shorter
    /// than `recordsPerRun` records (a small account is one run): each run counts its rows of every asset, then writes
    /// them from where the runs before it end for that asset, so every asset's rows come out in source order, as one
    /// pass gives them.
    init(assetCount: Int, assetOfRecord: [[Int32]]) {
        let total = assetOfRecord.reduce(0) { $0 + $1.count }
        self.init(
            assetCount: assetCount, assetOfRecord: assetOfRecord,
            runs: Swift.max(1, Swift.min(Parallel.threads, total / Self.recordsPerRun)))
    }

    /// Groups as `init(assetCount:assetOfRecord:)` does, in `runs` runs (tests group small inputs in several).
    init(assetCount: Int, assetOfRecord: [[Int32]], runs count: Int) {
        let runs = Self.cut(assetOfRecord, into: count)
        // Run after run, each run's rows of each asset; then, in place, where they go.
        var places = [Int32](repeating: 0, count: runs.count * assetCount)
        places.withUnsafeMutableBufferPointer { places in
            let counts = DisjointWrites(places)
            Parallel.perform(runs.count, threads: runs.count) { run in
                let base = run * assetCount
                for (source, records) in runs[run] {
                    for asset in assetOfRecord[source][records] where asset >= 0 { counts[base + Int(asset)] += 1 }
                }
            }
        }
        var starts = [Int32](repeating: 0, count: assetCount + 1)
        var next: Int32 = 0
        for asset in 0..<assetCount {
            starts[asset] = next
            for run in runs.indices {
                let count = places[run * assetCount + asset]
                places[run * assetCount + asset] = next
                next += count
            }
        }
        starts[assetCount] = next
        let storage = Storage(count: Int(next))
        let references = storage.references
        // The assets of a file's records are in no order, so in a large account each write waits for memory unless
        // the places of the records a few ahead are fetched first.
        let distance = Prefetch.keysAhead
        let prefetching = Prefetch.pays(bytes: references.count * MemoryLayout<RecordReference>.stride)
        // Every place is written once: the counts above give each run exactly as many places as it has rows.
        places.withUnsafeMutableBufferPointer { places in
            let cursors = DisjointWrites(places)
            Parallel.perform(runs.count, threads: runs.count) { run in
                let next = cursors.buffer.baseAddress! + run * assetCount
                for (source, records) in runs[run] {
                    assetOfRecord[source].withUnsafeBufferPointer { assets in
                        for record in records where assets[record] >= 0 {
                            let asset = Int(assets[record])
                            if prefetching, record + distance < records.upperBound,
                                case let upcoming = assets[record + distance], upcoming >= 0
                            {
                                Prefetch.line(at: references.baseAddress! + Int(next[Int(upcoming)]))
                            }
                            (references.baseAddress! + Int(next[asset])).initialize(
                                to: RecordReference(source: source, record: record))
                            next[asset] += 1
                        }
                    }
                }
            }
        }
        self.storage = storage
        self.starts = starts
    }

    /// The fewest records a run of the grouping has, so that a small account is grouped in one pass on one core.
    static let recordsPerRun = 1 << 18

    /// The records of all sources, in order, cut into `count` runs of about the same length: each run the sources
    /// (by index) and the records of each it covers.
    static func cut(_ assetOfRecord: [[Int32]], into count: Int) -> [[(source: Int, records: Range<Int>)]] {
        let total = assetOfRecord.reduce(0) { $0 + $1.count }
        var runs: [[(source: Int, records: Range<Int>)]] = Array(repeating: [], count: count)
        var before = 0
        for (source, assets) in assetOfRecord.enumerated() {
            for run in 0..<count {
                // The run's records, all sources one after the other, within this source's.
                let start = Swift.max(run * total / count, before) - before
                let end = Swift.min((run + 1) * total / count, before + assets.count) - before
                if start < end { runs[run].append((source, start..<end)) }
            }
            before += assets.count
        }
        return runs
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
