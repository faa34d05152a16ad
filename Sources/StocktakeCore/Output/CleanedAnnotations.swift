/// What `cleaned.csv` and `cleaned.xlsx` add to an asset's values: the name of its building and the ids of its
/// findings that are new or open, so that a `conflict` row says which findings to read.
///
/// A finding concerns the assets whose VT tag it names: its `vt_tag`, and for `SHARED_SERIAL`, `SHARED_MAC` and
/// `CNS_REUSED` every asset that carries the shared value. Acknowledged findings are left out: the clerk has seen
/// them. Both are made once for both tables (`CleanedTexts`), before their rows are written (on several threads).
struct CleanedAnnotations: Sendable {
    /// The `findings` cells, one after another as UTF-8: ids in the order of `discrepancies.csv`, joined by "; ".
    private let findingCells: [UInt8]
    /// Where each cell ends in `findingCells` (it starts where the one before it ends).
    private let findingEnds: [Int]
    /// The position in `findingEnds` of each asset's cell, by its index in the reconciliation's assets; -1 when it
    /// has none. Both cleaned tables look up every asset, and most have no finding: a table looked up by tag waited
    /// for memory on most rows (a million assets: about 0.2 s of CPU), where this list is read from start to end.
    private let cellOfAsset: [Int32]
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
        let tags = lists.keys.sorted()
        ends.reserveCapacity(tags.count)
        for tag in tags {
            cells += lists[tag]!.map(\.description).joined(separator: Self.separator).utf8
            ends.append(cells.count)
        }
        findingCells = cells
        findingEnds = ends
        cellOfAsset = Self.cells(of: reconciliation.assets, tags: tags)
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

    /// Calls `body` with the bytes of the `findings` cell of the reconciliation's asset at `index` and returns what
    /// it returns; `nil`, without calling it, when the asset has no new or open finding.
    func withFindings<Result>(ofAsset index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        let position = Int(cellOfAsset[index])
        guard position >= 0 else { return nil }
        let start = position == 0 ? 0 : findingEnds[position - 1]
        return findingCells.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[start..<findingEnds[position]]))
        }
    }

    /// The position in `tags` (ascending) of each asset's tag, -1 for an asset whose tag is not there or that has
    /// none. Assets come in tag order, so the next tag of the list is usually the one wanted or past it; a tag out
    /// of order is searched for, so any order gives the right positions.
    private static func cells(of assets: [CleanedAsset], tags: [UInt64]) -> [Int32] {
        var cells = [Int32](repeating: -1, count: assets.count)
        guard !tags.isEmpty else { return cells }
        tags.withUnsafeBufferPointer { tags in
            // The first of `tags` not below the tag looked up last.
            var position = 0
            for index in assets.indices {
                guard let tag = assets[index].packed.vtTag?.number else { continue }
                if position < tags.count, tags[position] < tag {
                    position += 1
                    if position < tags.count, tags[position] < tag {
                        position = firstIndex(notBelow: tag, in: tags, from: position + 1)
                    }
                } else if position > 0, tags[position - 1] >= tag {
                    position = firstIndex(notBelow: tag, in: tags, from: 0)
                }
                if position < tags.count, tags[position] == tag { cells[index] = Int32(position) }
            }
        }
        return cells
    }

    /// The index of the first of `tags` (ascending) from `start` on that is not below `tag`; `tags.count` when none.
    private static func firstIndex(notBelow tag: UInt64, in tags: UnsafeBufferPointer<UInt64>, from start: Int) -> Int {
        var low = start
        var high = tags.count
        while low < high {
            let middle = (low + high) / 2
            if tags[middle] < tag { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
