/// What `cleaned.csv` and `cleaned.xlsx` add to an asset's values: the name of its building and the ids of its
/// findings that are new or open, so that a `conflict` row says which findings to read.
///
/// A finding concerns the assets whose VT tag it names: its `vt_tag`, and for `SHARED_SERIAL`, `SHARED_MAC` and
/// `CNS_REUSED` every asset that carries the shared value. Acknowledged findings are left out: the clerk has seen
/// them. Both lists are made once per table, before its rows are written (on several threads).
struct CleanedAnnotations: Sendable {
    /// The `findings` cell by VT tag number: ids in the order of `discrepancies.csv`, joined by "; ".
    private let findingsByTag: [UInt64: String]
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
        findingsByTag = lists.mapValues { $0.map(\.description).joined(separator: Self.separator) }
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
        guard let tag = asset.packed.vtTag else { return nil }
        return findingsByTag[tag.number]
    }
}
