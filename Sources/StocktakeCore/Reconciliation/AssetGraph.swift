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
    private(set) var members: [[RecordReference]] = []
    /// Each asset's VT tag; `nil` for tag-less assets.
    private(set) var tags: [VTTag?] = []
    /// For each source, the asset each kept record belongs to (-1 when unplaced).
    private(set) var assetOfRecord: [[Int32]]
    private(set) var unplaced: [Unplaced] = []
    /// The assets holding each identifier value, in ascending order.
    private(set) var serialIndex: [SerialNumber: [Int]] = [:]
    private(set) var macIndex: [MACAddress: [Int]] = [:]
    private(set) var cnsIndex: [CNSNumber: [Int]] = [:]

    init(sources: [SourceData], fallbackIdentifiers: [CanonicalField]) {
        assetOfRecord = sources.map { Array(repeating: -1, count: $0.records.count) }
        var tagIndex: [VTTag: Int] = [:]
        for (sourceIndex, source) in sources.enumerated() {
            for (recordIndex, record) in source.records.enumerated() {
                guard let tag = record.values.vtTag else { continue }
                let asset: Int
                if let known = tagIndex[tag] {
                    asset = known
                } else {
                    asset = members.count
                    tagIndex[tag] = asset
                    members.append([])
                    tags.append(tag)
                }
                place(RecordReference(source: sourceIndex, record: recordIndex), values: record.values, in: asset)
            }
        }
        for (sourceIndex, source) in sources.enumerated() {
            for (recordIndex, record) in source.records.enumerated() where record.values.vtTag == nil {
                let reference = RecordReference(source: sourceIndex, record: recordIndex)
                join(reference, values: record.values, order: fallbackIdentifiers)
            }
        }
    }

    /// The number of assets, tagged and tag-less.
    var count: Int { members.count }

    /// The assets holding `field` with the value `values` has, or `[]`.
    func assets(sharing field: CanonicalField, with values: AssetValues) -> [Int] {
        switch field {
        case .serialNumber: values.serialNumber.flatMap { serialIndex[$0] } ?? []
        case .macAddress: values.macAddress.flatMap { macIndex[$0] } ?? []
        case .cnsNumber: values.cnsNumber.flatMap { cnsIndex[$0] } ?? []
        default: []
        }
    }

    private mutating func join(_ reference: RecordReference, values: AssetValues, order: [CanonicalField]) {
        var candidates: [Int]?
        var deciding: CanonicalField?
        for field in order {
            let matches = assets(sharing: field, with: values)
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
            members.append([])
            tags.append(nil)
            place(reference, values: values, in: members.count - 1)
            return
        }
        if candidates.count == 1 {
            place(reference, values: values, in: candidates[0])
        } else {
            unplaced.append(Unplaced(reference: reference, field: deciding, assets: candidates))
        }
    }

    private mutating func place(_ reference: RecordReference, values: AssetValues, in asset: Int) {
        members[asset].append(reference)
        assetOfRecord[Int(reference.source)][Int(reference.record)] = Int32(asset)
        if let serial = values.serialNumber { Self.add(asset, to: &serialIndex[serial, default: []]) }
        if let mac = values.macAddress { Self.add(asset, to: &macIndex[mac, default: []]) }
        if let cns = values.cnsNumber { Self.add(asset, to: &cnsIndex[cns, default: []]) }
    }

    /// Adds `asset` once to an index list kept in ascending order. A binary search keeps this fast when thousands of
    /// assets share one value (a junk serial such as `UNKNOWN`), where scanning the list made the graph quadratic.
    private static func add(_ asset: Int, to list: inout [Int]) {
        guard let last = list.last, last >= asset else {
            list.append(asset)
            return
        }
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle] < asset { low = middle + 1 } else { high = middle }
        }
        if list[low] != asset { list.insert(asset, at: low) }
    }
}
