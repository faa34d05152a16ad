/// What one building's assets cost, for the billing column of the report's per-building table.
///
/// The report takes these as given (`RunDetails.buildingBills`, from `BillingTotals`): they are summed from the unit
/// costs a source gives. A building without a bill shows an empty cell; an empty code is the assets with no building.
public struct BuildingBill: Sendable, Hashable {
    /// The building's canonical code, as `cleaned.csv` writes it.
    public var building: String
    /// The total, in cents.
    public var totalCents: Int64
    /// The building's assets that have no unit cost, so are not in the total.
    public var uncostedAssets: Int

    public init(building: String, totalCents: Int64, uncostedAssets: Int = 0) {
        self.building = building
        self.totalCents = totalCents
        self.uncostedAssets = uncostedAssets
    }

    /// The table cell: the total, and how many assets it leaves out for want of a cost.
    var cell: String {
        uncostedAssets == 0 ? formattedTotal : "\(formattedTotal) (\(grouped(uncostedAssets)) without a cost)"
    }

    /// The total as the report shows it: `12,345.67`, a minus sign before a negative one.
    public var formattedTotal: String {
        let magnitude = totalCents.magnitude
        let cents = magnitude % 100
        return (totalCents < 0 ? "-" : "") + grouped(Int(magnitude / 100)) + "." + (cents < 10 ? "0" : "")
            + String(cents)
    }
}
