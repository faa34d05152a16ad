/// Joins the rows of all sources into assets, following DOMAIN.md "Identification".
///
/// Rows with a VT tag belong to that tag's asset. Rows without one join, in source order, the asset found by the
/// first fallback identifier (serial, MAC, CNS by default) that matches; when several assets match, the next
/// identifiers narrow them; when nothing decides, the row joins nothing and is named by the shared identifier's
/// discrepancy. A tag-less row that matches nothing starts a tag-less asset.
struct AssetGraph {
    /// A row that matched several assets and could not be placed.
    struct Unplaced {
        var reference: RecordReference
        var field: CanonicalField
        var assets: [Int]
    }

    /// The rows of each asset, in source order. Tagged assets come first, in order of first appearance.
    private(set) var members = AssetMembers(assetCount: 0, assetOfRecord: [])
    /// Each asset's VT tag; `nil` for tag-less assets.
    private(set) var tags: [VTTag?] = []
    /// For each source, the asset each kept record belongs to (-1 when unplaced).
    private(set) var assetOfRecord: [[Int32]]
    private(set) var unplaced: [Unplaced] = []
    /// The assets holding each identifier value, in ascending order.
    private(set) var serialIndex = IdentifierIndex<SerialNumber>()
    private(set) var macIndex = IdentifierIndex<MACAddress>()
    private(set) var cnsIndex = IdentifierIndex<CNSNumber>()

    init(sources: [SourceData], fallbackIdentifiers: [CanonicalField]) {
        // Most assets are rows of the central sheet: sizing the indexes for it avoids rehashing millions of entries.
        let expected = sources.first { $0.file.role == .central }?.records.count ?? 0
        (tags, assetOfRecord, serialIndex, macIndex, cnsIndex) = Self.placeTaggedRowsAndIndex(
            sources, expected: expected)
        let prefetching = serialIndex.outgrowsCache || macIndex.outgrowsCache || cnsIndex.outgrowsCache
        for (sourceIndex, source) in sources.enumerated() {
            do {
                let records = source.records.view
                // A tagged row is told by its tag alone; each tag-less row is unpacked once, and handed on to be
                // joined and placed.
                for recordIndex in 0..<records.count where records.vtTagNumber(at: recordIndex) == nil {
                    let values = records.packed(at: recordIndex)
                    let ahead = recordIndex + Prefetch.keysAhead
                    if prefetching, ahead < records.count, records.vtTagNumber(at: ahead) == nil {
                        prefetch(records, ahead)
                    }
                    let reference = RecordReference(source: sourceIndex, record: recordIndex)
                    join(reference, values: values, order: fallbackIdentifiers)
                }
            }
        }
        members = AssetMembers(assetCount: tags.count, assetOfRecord: assetOfRecord)
    }

    /// Places the tagged rows on one core while the serial, MAC and CNS indexes of the rows placed so far are built on
    /// the others, each a source behind the placing (one after another on one core). Each index sees the rows in the
    /// same order as when one loop built all three, so the indexes (and the order values became shared) are the same.
    ///
    /// Returns each asset's tag, the asset of each source's rows (-1 for a tag-less row) and the three indexes. What
    /// held them on the way is gone when this returns, so each is the caller's alone: the tag-less rows are then placed
    /// into them without copying any.
    private static func placeTaggedRowsAndIndex(_ sources: [SourceData], expected: Int) -> (
        [VTTag?], [[Int32]], IdentifierIndex<SerialNumber>, IdentifierIndex<MACAddress>, IdentifierIndex<CNSNumber>
    ) {
        let placed = PlacedSources(count: sources.count)
        let placedTags = ResultSlots<[VTTag?]>(count: 1)
        let serials = ResultSlots<IdentifierIndex<SerialNumber>>(count: 1)
        let macs = ResultSlots<IdentifierIndex<MACAddress>>(count: 1)
        let numbers = ResultSlots<IdentifierIndex<CNSNumber>>(count: 1)
        // Tasks are taken in order, so the placing is always running: the indexes that wait for it never hold the
        // only thread.
        Parallel.perform(4) { task in
            switch task {
            case 0:
                placedTags[0] = placeTaggedRows(of: sources, expected: expected, into: placed)
            case 1:
                serials[0] = index(
                    of: sources, placed: placed, capacity: expected, integer: Self.serialKey,
                    value: { $0.serialCode.serialNumber! })
            case 2:
                macs[0] = index(
                    of: sources, placed: placed, capacity: expected,
                    integer: { $0.macAddressValue(at: $1) }, value: { $0.macAddress! })
            default:
                numbers[0] = index(
                    of: sources, placed: placed, capacity: expected,
                    integer: { $0.cnsNumberValue(at: $1) }, value: { $0.cnsNumber! })
            }
        }
        return (placedTags[0]!, placed.take(), serials[0]!, macs[0]!, numbers[0]!)
    }

    /// Gives each tagged row its tag's asset, numbered in order of first appearance, publishing each source's rows to
    /// `placed` as soon as they are placed; returns each asset's tag. The table of tags is gone when this returns.
    private static func placeTaggedRows(
        of sources: [SourceData], expected: Int, into placed: PlacedSources
    ) -> [VTTag?] {
        // Every tag of one run has the configured number of digits, so its number alone tells tags apart.
        var tagIndex = IntegerTable(capacity: expected)
        var tags: [VTTag?] = []
        tags.reserveCapacity(expected)
        let prefetching = tagIndex.outgrowsCache
        // Records are read in place: iterating them by value would copy every row.
        for (sourceIndex, source) in sources.enumerated() {
            var rows = [Int32](repeating: -1, count: source.records.count)
            rows.withUnsafeMutableBufferPointer { assets in
                do {
                    let records = source.records.view
                    // A row's tag is read alone; the whole row only for a tag seen for the first time.
                    for recordIndex in 0..<records.count {
                        let ahead = recordIndex + Prefetch.keysAhead
                        if prefetching, ahead < records.count, let number = records.vtTagNumber(at: ahead) {
                            tagIndex.prefetch(number)
                        }
                        guard let number = records.vtTagNumber(at: recordIndex) else { continue }
                        if let known = tagIndex.value(of: number, insertingIfAbsent: Int32(tags.count)) {
                            assets[recordIndex] = known
                        } else {
                            assets[recordIndex] = Int32(tags.count)
                            tags.append(records.packed(at: recordIndex).vtTag!)
                        }
                    }
                }
            }
            placed.publish(rows, source: sourceIndex)
        }
        return tags
    }

    /// The serial code of the row at `position` of `records` as the key of the index of serials; `nil` for none.
    private static func serialKey(_ records: SourceRows.View, _ position: Int) -> UInt64? {
        records.serialCode(at: position).indexKey
    }

    /// The index of one identifier over the tagged rows, in source order, each source's rows as soon as `placed` has
    /// them; `integer` gives a row's integer key, read from the row alone (`nil` when it has no value), and `value`
    /// its value, made only for values that turn out shared.
    private static func index<Key: IndexKey>(
        of sources: [SourceData], placed: PlacedSources, capacity: Int, integer: (SourceRows.View, Int) -> UInt64?,
        value: (PackedValues) -> Key
    ) -> IdentifierIndex<Key> {
        var index = IdentifierIndex<Key>()
        index.reserveCapacity(capacity)
        let prefetching = index.outgrowsCache
        for (sourceIndex, source) in sources.enumerated() {
            let assets = placed.assets(of: sourceIndex)
            do {
                let records = source.records.view
                for recordIndex in 0..<records.count where assets[recordIndex] >= 0 {
                    let ahead = recordIndex + Prefetch.keysAhead
                    if prefetching, ahead < records.count, assets[ahead] >= 0, let upcoming = integer(records, ahead) {
                        index.prefetch(integer: upcoming)
                    }
                    guard let key = integer(records, recordIndex) else { continue }
                    index.add(Int(assets[recordIndex]), integer: key) { value(records.packed(at: recordIndex)) }
                }
            }
        }
        return index
    }

    /// Frees the serial, MAC and CNS indexes' tables of values carried by one asset; the shared values stay listed.
    mutating func keepOnlySharedValues() {
        serialIndex.keepOnlySharedValues()
        macIndex.keepOnlySharedValues()
        cnsIndex.keepOnlySharedValues()
    }

    /// Frees the serial, MAC and CNS indexes once shared identifiers have been found.
    mutating func releaseIdentifierIndexes() {
        serialIndex = IdentifierIndex()
        macIndex = IdentifierIndex()
        cnsIndex = IdentifierIndex()
    }

    /// The number of assets, tagged and tag-less.
    var count: Int { tags.count }

    /// The assets holding `field` with the value `values` has, or `[]`.
    func assets(sharing field: CanonicalField, with values: AssetValues) -> [Int] {
        switch field {
        case .serialNumber: values.serialNumber.flatMap { serialIndex[$0] } ?? []
        case .macAddress: values.macAddress.flatMap { macIndex[$0] } ?? []
        case .cnsNumber: values.cnsNumber.flatMap { cnsIndex[$0] } ?? []
        default: []
        }
    }

    private mutating func join(
        _ reference: RecordReference, values: PackedValues, order: [CanonicalField]
    ) {
        // Most rows match one asset by their first identifier: that asset takes them without building any list.
        if let field = order.first(where: { integerKey(field: $0, of: values) != nil }),
            let asset = onlyAsset(sharing: field, integer: integerKey(field: field, of: values)!)
        {
            place(reference, values: values, in: asset)
            return
        }
        var candidates: [Int]?
        var deciding: CanonicalField?
        for field in order {
            let matches = integerKey(field: field, of: values).flatMap { assets(sharing: field, integer: $0) } ?? []
            guard !matches.isEmpty else { continue }
            if let current = candidates {
                let wanted = Set(matches)
                let narrowed = current.filter(wanted.contains)
                if !narrowed.isEmpty { candidates = narrowed }
            } else {
                candidates = matches
                deciding = field
            }
            if candidates?.count == 1 { break }
        }
        guard let candidates, let deciding else {
            tags.append(nil)
            place(reference, values: values, in: tags.count - 1)
            return
        }
        if candidates.count == 1 {
            place(reference, values: values, in: candidates[0])
        } else {
            unplaced.append(Unplaced(reference: reference, field: deciding, assets: candidates))
        }
    }

    /// Starts fetching what placing the tag-less row at `position` of `records` reads: the slots of its serial, MAC
    /// and CNS number in their indexes, which it is looked up by and then added to.
    private mutating func prefetch(_ records: SourceRows.View, _ position: Int) {
        if let integer = Self.serialKey(records, position) { serialIndex.prefetch(integer: integer) }
        if let integer = records.macAddressValue(at: position) { macIndex.prefetch(integer: integer) }
        if let integer = records.cnsNumberValue(at: position) { cnsIndex.prefetch(integer: integer) }
    }

    /// The integer a row's value of an identifier is indexed by (see `IndexKey`); `nil` when the row has none.
    private func integerKey(field: CanonicalField, of values: PackedValues) -> UInt64? {
        switch field {
        case .serialNumber: values.serialCode.indexKey
        case .macAddress: values.macAddress?.integerKey
        case .cnsNumber: values.cnsNumber?.integerKey
        default: nil
        }
    }

    private func assets(sharing field: CanonicalField, integer: UInt64) -> [Int]? {
        switch field {
        case .serialNumber: serialIndex[integer: integer]
        case .macAddress: macIndex[integer: integer]
        case .cnsNumber: cnsIndex[integer: integer]
        default: nil
        }
    }

    private func onlyAsset(sharing field: CanonicalField, integer: UInt64) -> Int? {
        switch field {
        case .serialNumber: serialIndex.onlyAsset(integer: integer)
        case .macAddress: macIndex.onlyAsset(integer: integer)
        case .cnsNumber: cnsIndex.onlyAsset(integer: integer)
        default: nil
        }
    }

    private mutating func place(
        _ reference: RecordReference, values: PackedValues, in asset: Int
    ) {
        assetOfRecord[Int(reference.source)][Int(reference.record)] = Int32(asset)
        // The row's packed values are read field by field; its texts are never unpacked here.
        let serial = values.serialCode
        if !serial.isNone {
            serialIndex.add(asset, integer: serial.rawValue) { serial.serialNumber! }
        }
        if let mac = values.macAddress { macIndex.add(asset, for: mac) }
        if let cns = values.cnsNumber { cnsIndex.add(asset, for: cns) }
    }
}
