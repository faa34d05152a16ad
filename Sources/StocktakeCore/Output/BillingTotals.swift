/// What each building's assets cost: per building code, how many assets `cleaned.csv` holds, how many of them have a
/// unit cost, and the sum of those costs in cents, for the report's billing table.
///
/// Every cleaned asset counts, whatever its status, as it is a row of `cleaned.csv`. Assets without a cost are
/// counted in `assets` but not in `costedAssets`, so a total that leaves some out says so. Sums are in integer cents:
/// they add up exactly, and a sum past `Int64.max` cents stops there.
public struct BillingTotals: Sendable, Hashable {
    /// The assets of one building code.
    public struct BuildingTotal: Sendable, Hashable {
        /// The building code as `cleaned.csv` writes it; empty for assets with no building.
        public var building: String
        /// The building's name from the buildings table; empty when there is no table or the code is not in it.
        public var name: String
        /// The assets with this building.
        public var assets: Int
        /// Those of them with a unit cost.
        public var costedAssets: Int
        /// The sum of their unit costs, in cents.
        public var totalCents: Int64

        public init(building: String, name: String, assets: Int, costedAssets: Int, totalCents: Int64) {
            self.building = building
            self.name = name
            self.assets = assets
            self.costedAssets = costedAssets
            self.totalCents = totalCents
        }

        /// The assets with this building that have no unit cost.
        public var uncostedAssets: Int { assets - costedAssets }
        /// The sum of their unit costs.
        public var total: UnitCost { UnitCost(cents: totalCents) }

        /// The total as the report shows it: `12,345.67`, then how many assets it leaves out for want of a cost.
        public var formattedTotal: String {
            let cents = totalCents % 100
            let text = grouped(Int(totalCents / 100)) + "." + (cents < 10 ? "0" : "") + String(cents)
            return uncostedAssets == 0 ? text : "\(text) (\(grouped(uncostedAssets)) without a cost)"
        }

        mutating func add(_ cost: UnitCost?) {
            assets += 1
            guard let cost else { return }
            costedAssets += 1
            let (sum, overflow) = totalCents.addingReportingOverflow(cost.cents)
            totalCents = overflow ? Int64.max : sum
        }
    }

    /// Whether any asset has a unit cost: without one, no source gives costs and the report shows no billing.
    public var hasCosts: Bool { overall.costedAssets > 0 }

    /// One line per building code, sorted by code; assets with no building last.
    public var buildings: [BuildingTotal]
    /// Every asset: the sum of the lines, with `building` and `name` empty.
    public var overall: BuildingTotal

    /// The totals of `reconciliation`'s cleaned assets, each building named from its buildings table.
    public init(_ reconciliation: Reconciliation) {
        // By text id (never negative here): a lookup is a multiply and a probe, not SipHash.
        var indexes = IntegerTable()
        var lines: [BuildingTotal] = []
        var lastBuilding: Int32 = -1
        var lastLine = 0
        var withoutBuilding = BuildingTotal(building: "", name: "", assets: 0, costedAssets: 0, totalCents: 0)
        overall = withoutBuilding
        let texts = SharedTexts.shared
        for index in reconciliation.assets.indices {
            // Read from the packed values: the building is a text id, so assets are grouped without a string each.
            let packed = reconciliation.assets[index].packed
            let cost = packed.cost
            overall.add(cost)
            guard packed.building >= 0 else {
                withoutBuilding.add(cost)
                continue
            }
            // Assets of one building often follow each other: the last line is tried before the dictionary.
            if packed.building == lastBuilding {
                lines[lastLine].add(cost)
            } else if let line = indexes[UInt64(packed.building)] {
                lines[Int(line)].add(cost)
                lastBuilding = packed.building
                lastLine = Int(line)
            } else {
                let code = texts.string(packed.building)
                let name = reconciliation.buildings?.building(code: code)?.name ?? ""
                indexes.set(Int32(lines.count), for: UInt64(packed.building))
                lines.append(BuildingTotal(building: code, name: name, assets: 0, costedAssets: 0, totalCents: 0))
                lines[lines.count - 1].add(cost)
                lastBuilding = packed.building
                lastLine = lines.count - 1
            }
        }
        lines.sort { $0.building < $1.building }
        if withoutBuilding.assets > 0 { lines.append(withoutBuilding) }
        buildings = lines
    }
}
