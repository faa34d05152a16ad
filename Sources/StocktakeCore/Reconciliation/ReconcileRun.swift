import Foundation

/// The working state of one reconciliation.
struct ReconcileRun {
    /// The sources, in reconciliation order; their rows are let go (`releaseRecords`) once every finding is made.
    private(set) var sources: [SourceData]
    let rules: ReconciliationRules
    var graph: AssetGraph
    private(set) var merger: AssetMerger
    /// Each asset's rows sorted in source order.
    let members: AssetMembers
    /// The role of each source.
    let sourceRoles: [SourceRole]
    /// The roles of each asset's rows, one bit per `SourceRole` (see `mask(_:)`).
    let roles: [UInt8]
    /// Each asset's merged values, packed.
    var packedMerged: [PackedValues] = []
    /// The fields each asset's rows disagree on (see `AssetMerger.bit(_:)`).
    var differing: [UInt16] = []
    var found: [Discrepancy] = []
    /// Assets with an identity or field dispute (their cleaned status is `conflict`).
    var disputed: [Bool]
    /// Central assets no sighting matched, by tag.
    var unseen: [VTTag: Int] = [:]
    /// Whether each asset is in `unseen`.
    var isUnseen: [Bool]
    /// Tagged assets absent from central, sorted by tag.
    var unrecorded: [Int] = []
    /// For the central asset of each POSSIBLE_TYPO pair, the scanned (unrecorded) asset and the edit between the tags.
    var typoOfCentral: [Int: (scanned: Int, edit: String)] = [:]
    /// For the scanned asset of each POSSIBLE_TYPO pair, its central asset. A scanned tag is no asset of its own.
    var centralOfTypo: [Int: Int] = [:]
    /// For the central asset of each POSSIBLE_TYPO pair, the serials and MACs both tags carry, with the rows that
    /// also carry them and could be matched to neither: part of the pair's finding, not SHARED_SERIAL or SHARED_MAC.
    var typoShared: [Int: [(field: CanonicalField, key: String, stray: [RecordReference])]] = [:]

    init(sources: [SourceData], rules: ReconciliationRules, durations: inout [(phase: String, seconds: Double)]) {
        self.sources = sources
        self.rules = rules
        let clock = ContinuousClock()
        var start = clock.now
        graph = AssetGraph(sources: sources, fallbackIdentifiers: rules.fallbackIdentifiers)
        // Every row is placed: only the values shared by several assets are looked at from here on.
        graph.keepOnlySharedValues()
        merger = AssetMerger(sources: sources, precedence: rules.precedence)
        members = graph.members
        sourceRoles = sources.map(\.file.role)
        let masks = sources.map { ReconcileRun.mask($0.file.role) }
        roles = members.map { references in references.reduce(0) { $0 | masks[Int($1.source)] } }
        durations.append(("identify", Reconciler.seconds(clock.now - start)))
        start = clock.now
        let merger = merger
        let members = members
        var differing = [UInt16](repeating: 0, count: members.count)
        let prefetching = AssetMerger.prefetches(assetCount: members.count)
        packedMerged = differing.withUnsafeMutableBufferPointer { buffer in
            let bits = DisjointWrites(buffer)
            return Parallel.map(members.count) { asset in
                let ahead = asset + Prefetch.assetsAhead
                if prefetching, ahead < members.count { merger.prefetch(members[ahead]) }
                let (values, differing) = merger.merge(checking: members[asset])
                bits[asset] = differing
                return values
            }
        }
        self.differing = differing
        disputed = Array(repeating: false, count: members.count)
        isUnseen = Array(repeating: false, count: members.count)
        durations.append(("merge", Reconciler.seconds(clock.now - start)))
    }

    /// The bit of `role` in `roles`.
    static func mask(_ role: SourceRole) -> UInt8 {
        switch role {
        case .central: 1
        case .sighting: 2
        case .register: 4
        }
    }

    /// The merged values of each asset, unpacked when read: for findings and messages, not for every asset.
    var merged: MergedValues { MergedValues(packed: packedMerged) }

    struct MergedValues {
        let packed: [PackedValues]
        subscript(asset: Int) -> MergedAsset { MergedAsset(packed: packed[asset]) }
    }

    /// One asset's merged values, each field unpacked as it is read: a finding names its asset by three or four of
    /// them, where unpacking them all made every text a `String` for each one read.
    struct MergedAsset {
        let packed: PackedValues

        var serialNumber: SerialNumber? { packed.only(.serialNumber).serialNumber }
        var macAddress: MACAddress? { packed.macAddress }
        var cnsNumber: CNSNumber? { packed.cnsNumber }
        var building: String? { packed.only(.building).building }
        var room: String? { packed.only(.room).room }
    }

    func role(_ reference: RecordReference) -> SourceRole { sourceRoles[Int(reference.source)] }
    func location(_ reference: RecordReference) -> SourceLocation { merger.location(of: reference) }
    func isCentral(_ asset: Int) -> Bool { roles[asset] & ReconcileRun.mask(.central) != 0 }
    func isSighted(_ asset: Int) -> Bool { roles[asset] & ReconcileRun.mask(.sighting) != 0 }

    mutating func finish() -> Reconciliation {
        let tagged = graph.tags.indices.filter { graph.tags[$0] != nil }
        // Sized for one finding per asset, so a sheet where every asset is MISSING does not grow the list by doubling.
        found.reserveCapacity(tagged.count + graph.count / 8)
        pairTypos(tagged)
        findShared()
        // Nothing below looks identifiers up; their indexes go before the per-asset findings are built.
        graph.releaseIdentifierIndexes()
        // Each asset's own findings depend on nothing another asset's find: chunks of assets run on all cores, and
        // their findings are joined in asset order, as one loop would list them.
        // A copy that does not change while the chunks read it: calling through `self`, which this method may
        // change, copied the whole run (and retained its every array) for each call.
        do {
            let run = self
            // The checks read the rows of an asset whose rows differ or which may be stale: in a large account those
            // of the assets a few ahead are fetched first, as for merging. Most assets' rows are not read at all.
            let prefetching = AssetMerger.prefetches(assetCount: members.count)
            let chunks = Parallel.chunked(tagged.count) { range in
                var findings = AssetFindings()
                for position in range {
                    if prefetching, position + Prefetch.assetsAhead < range.upperBound {
                        let ahead = tagged[position + Prefetch.assetsAhead]
                        if run.differing[ahead] != 0 || run.mayBeStale(ahead) {
                            run.merger.prefetch(run.members[ahead])
                        }
                    }
                    let asset = tagged[position]
                    run.findDuplicateTag(asset, into: &findings)
                    run.findTagCNSMismatch(asset, into: &findings)
                    run.findFieldConflicts(asset, into: &findings)
                    run.findNoCNS(asset, into: &findings)
                    run.findStale(asset, into: &findings)
                }
                return findings
            }
            for chunk in chunks {
                found.append(contentsOf: chunk.found)
                for asset in chunk.disputed { disputed[asset] = true }
            }
        }
        findMissingAndUnrecorded()
        findNoTag()
        findRowIssues()
        findRepeatedRows()
        // Every finding is made: the rows (most of a large run's memory) go before the cleaned table is built.
        releaseRecords()
        // Sorting positions, not the discrepancies themselves, avoids copying each one many times.
        let keys = found.indices.map { index in
            (
                severity: found[index].code.severity.rank, code: found[index].code.rank,
                tag: found[index].vtTag?.number ?? UInt64.max
            )
        }
        let order = found.indices.sorted { left, right in
            if keys[left] != keys[right] { return keys[left] < keys[right] }
            return Discrepancy.listedBefore(found[left], found[right])
        }
        Reconciler.permute(&found, into: order)
        // The scanned tag of a POSSIBLE_TYPO pair is not an asset of its own: its rows are named in the finding.
        // Sorted by the tags' numbers (every tag of a run has the same digits, and each tagged asset has its own), by
        // radix: a comparison sort of a million pairs took a tenth of a second on one core.
        var numbers: [UInt64] = []
        var taggedAssets: [UInt32] = []
        numbers.reserveCapacity(tagged.count)
        taggedAssets.reserveCapacity(tagged.count)
        // The scanned tags, ascending, walked beside the tagged assets (ascending too): a lookup in `centralOfTypo`
        // for each of a million assets hashed a million keys on one core (about 20 ms).
        let typoScans = centralOfTypo.keys.sorted()
        var nextScan = 0
        for asset in tagged {
            while nextScan < typoScans.count && typoScans[nextScan] < asset { nextScan += 1 }
            if nextScan < typoScans.count && typoScans[nextScan] == asset { continue }
            numbers.append(graph.tags[asset]!.number)
            taggedAssets.append(UInt32(asset))
        }
        TagSort.sort(keys: &numbers, values: &taggedAssets)
        numbers = []
        let assets = cleanedAssets(taggedAssets.map(Int.init))
        packedMerged = []
        let inputs = sources.map { source in
            Reconciliation.Input(
                file: source.file, rows: source.rowCount, delimiter: source.delimiter,
                unmapped: source.layout.unmapped, notes: [source.encodingNote].compactMap { $0 } + source.layout.notes)
        }
        return Reconciliation(assets: assets, discrepancies: found, inputs: inputs, asOf: rules.asOf)
    }

    // MARK: - Helpers

    /// The cleaned table's rows: the assets in `order`, built on all cores in chunks, each chunk with its own cache
    /// of `sources` cells (see `sourceList(_:cache:)`).
    private func cleanedAssets(_ order: [Int]) -> [CleanedAsset] {
        let ranges = Parallel.chunks(of: order.count)
        // The assets come in tag order, not in the order they are numbered: in a large account each one's values,
        // status and rows are a wait for memory, unless those of the assets a few ahead are fetched first (where its
        // rows start, then, once that is in cache, the rows).
        let prefetching = AssetMerger.prefetches(assetCount: order.count)
        let ahead = Prefetch.assetsAhead
        return [CleanedAsset](unsafeUninitializedCapacity: order.count) { buffer, initialized in
            let rows = DisjointWrites(buffer)
            Parallel.perform(ranges.count) { piece in
                var sourceLists = SourceLists()
                let range = ranges[piece]
                for index in range {
                    if prefetching {
                        if index + 2 * ahead < range.upperBound { prefetchCleaned(order[index + 2 * ahead]) }
                        if index + ahead < range.upperBound { members.prefetchRows(of: order[index + ahead]) }
                    }
                    let asset = order[index]
                    (rows.buffer.baseAddress! + index).initialize(
                        to: CleanedAsset(
                            packed: packedMerged[asset], status: status(of: asset),
                            sourceList: sourceList(members[asset], cache: &sourceLists)))
                }
            }
            initialized = order.count
        }
    }

    /// Starts fetching what the cleaned row of `asset` reads first: its merged values, its status and where its rows
    /// start.
    @inline(__always)
    private func prefetchCleaned(_ asset: Int) {
        packedMerged.withUnsafeBufferPointer {
            let values = UnsafeRawPointer($0.baseAddress! + asset)
            Prefetch.line(at: values)
            Prefetch.line(at: values + MemoryLayout<PackedValues>.size - 1)
        }
        roles.withUnsafeBufferPointer { Prefetch.line(at: $0.baseAddress! + asset) }
        isUnseen.withUnsafeBufferPointer { Prefetch.line(at: $0.baseAddress! + asset) }
        disputed.withUnsafeBufferPointer { Prefetch.line(at: $0.baseAddress! + asset) }
        members.prefetchStart(of: asset)
    }

    /// Lets go of every source's rows, keeping what the outputs say of each source (its name, layout and counts).
    /// The rows are freed when this run held the last reference to them (see `Reconciler.reconcile`).
    private mutating func releaseRecords() {
        for index in sources.indices { sources[index].records = [] }
        merger = AssetMerger(sources: sources, precedence: [:])
    }

    /// The `sources` cell of an asset: its files in source order. Assets seen in the same files share one string.
    func sourceList(_ references: UnsafeBufferPointer<RecordReference>, cache: inout SourceLists) -> String {
        // Rows are in source order, so the files are too; up to 64 files are one bit each, a key without allocation.
        guard sources.count <= 64 else {
            var files: [Int32] = []
            for reference in references where files.last != reference.source { files.append(reference.source) }
            return files.map { sources[Int($0)].file.displayName }.joined(separator: "; ")
        }
        var key: UInt64 = 0
        for reference in references { key |= 1 &<< UInt64(truncatingIfNeeded: reference.source) }
        return cache.list(of: key) {
            // Made as bytes: appending to a `String` cost about a thousand instructions a name.
            var list: [UInt8] = []
            for source in sources.indices where key & (1 &<< UInt64(source)) != 0 {
                if source != key.trailingZeroBitCount { list += "; ".utf8 }
                list += sources[source].file.displayName.utf8
            }
            return String(decoding: list, as: UTF8.self)
        }
    }

    /// The `value` or `expected` cell for several values: `a; b; c`, shortened after 20 values.
    static func valueList(_ values: [String]) -> String {
        let limit = 20
        guard values.count > limit + 1 else { return values.joined(separator: "; ") }
        return values.prefix(limit).joined(separator: "; ") + "; and \(values.count - limit) more"
    }
}
