/// What one building's assets cost, for the billing column of the report's per-building table.
///
/// The report takes these as given (`RunDetails.buildingBills`): they are summed from the unit costs a source gives,
/// elsewhere. A building without a bill shows an empty cell.
public struct BuildingBill: Sendable, Hashable {
    /// The building's canonical code, as `cleaned.csv` writes it.
    public var building: String
    /// The total, in cents.
    public var totalCents: Int64

    public init(building: String, totalCents: Int64) {
        self.building = building
        self.totalCents = totalCents
    }

    /// The total as the report shows it: `12,345.67`, a minus sign before a negative one.
    public var formattedTotal: String {
        let magnitude = totalCents.magnitude
        let cents = magnitude % 100
        return (totalCents < 0 ? "-" : "") + grouped(Int(magnitude / 100)) + "." + (cents < 10 ? "0" : "")
            + String(cents)
    }
}
