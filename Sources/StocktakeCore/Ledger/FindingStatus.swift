/// Where one of tonight's findings stands: its id, since when it stands, and whether it is new, open or
/// acknowledged; the last three columns of `discrepancies.csv`.
public struct FindingStatus: Sendable, Hashable {
    public var id: FindingID
    public var firstSeen: InventoryDate
    public var state: FindingState
    /// Why, when it needs saying: "Reopened: first seen …", "Acknowledged on … by …".
    public var note: String

    public init(id: FindingID, firstSeen: InventoryDate, state: FindingState, note: String = "") {
        self.id = id
        self.firstSeen = firstSeen
        self.state = state
        self.note = note
    }
}
