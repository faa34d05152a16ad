/// What `cleaned.csv` and `cleaned.xlsx` add to an asset's values: the name of its building and the ids of its
/// findings that are new or open, so that a `conflict` row says which findings to read.
///
/// A finding concerns the assets whose VT tag it names: its `vt_tag`, and for `SHARED_SERIAL`, `SHARED_MAC` and
/// `CNS_REUSED` every asset that carries the shared value. Acknowledged findings are left out: the clerk has seen
/// them. Both lists are made once per table, before its rows are written (on several threads).
struct CleanedAnnotations: Sendable {
    /// The `findings` cells, one after another as UTF-8: ids in the order of `discrepancies.csv`, joined by "; ".
    private let findingCells: [UInt8]
    /// Where each cell ends in `findingCells` (it starts where the one before it ends).
    private let findingEnds: [Int]
    /// The position in `findingEnds` of each VT tag number's cell. Both cleaned tables look every asset up, and most
    /// have no finding: an `IntegerTable` answers in a few instructions, where a `Dictionary` ran SipHash each time
    /// (a million assets hashed twice).
    private let findingsByTag: IntegerTable
    /// The building name by the text id of its code, for the codes the buildings table names.
    private let namesByBuilding: [Int32: String]

    /// The separator between the ids of one cell, as `sources` separates file names.
    static let separator = "; "

    init(_ reconciliation: Reconciliation) {
        var lists: [UInt64: [FindingID]] = [:]
        let statuses = reconciliation.statuses
        for index in reconciliation.discrepancies.indices {
            let state = statuses[index].state
            guard state == .new || state == .open else { continue }
            let id = statuses[index].id
            var tags: [UInt64] = []
            if let tag = reconciliation.discrepancies[index].vtTag { tags.append(tag.number) }
            if case .holders(_, let holders, _) = reconciliation.discrepancies[index].detail {
                tags += holders.compactMap { $0.vtTag?.number }
            }
            for tag in tags where !(lists[tag]?.contains(id) ?? false) {
                lists[tag, default: []].append(id)
            }
        }
        var cells: [UInt8] = []
        var ends: [Int] = []
        var positions = IntegerTable(capacity: lists.count)
        for (tag, ids) in lists {
            positions.set(Int32(ends.count), for: tag)
            cells += ids.map(\.description).joined(separator: Self.separator).utf8
            ends.append(cells.count)
        }
        findingCells = cells
        findingEnds = ends
        findingsByTag = positions
        var names: [Int32: String] = [:]
        if let table = reconciliation.buildings {
            let texts = SharedTexts.shared
            var seen = Set<Int32>()
            for index in reconciliation.assets.indices {
                let building = reconciliation.assets[index].packed.building
                guard building >= 0, seen.insert(building).inserted else { continue }
                if let name = table.building(code: texts.string(building))?.name, !name.isEmpty {
                    names[building] = name
                }
            }
        }
        namesByBuilding = names
    }

    /// The `building_name` cell of an asset: its building's name, `nil` when the building is not in the table.
    func buildingName(of asset: CleanedAsset) -> String? {
        namesByBuilding[asset.packed.building]
    }

    /// The `findings` cell of an asset, `nil` when it has no new or open finding.
    func findings(of asset: CleanedAsset) -> String? {
        withFindings(of: asset.packed) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the bytes of the `findings` cell of the asset whose values are `values` and returns what it
    /// returns; `nil`, without calling it, when the asset has no new or open finding.
    func withFindings<Result>(of values: PackedValues, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard let tag = values.vtTag, let position = findingsByTag[tag.number] else { return nil }
        let index = Int(position)
        let start = index == 0 ? 0 : findingEnds[index - 1]
        return findingCells.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[start..<findingEnds[index]]))
        }
    }
}
