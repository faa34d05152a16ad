/// The state of one asset in `cleaned.csv`.
public enum AssetStatus: String, Sendable, Hashable {
    /// In the central sheet, sighted, nothing in dispute.
    case ok
    /// In the central sheet but no sighting matched it.
    case missing
    /// Known from some source but not in the central sheet.
    case unrecorded
    /// In the central sheet and sighted, but its identifiers or fields are in dispute.
    case conflict
}
