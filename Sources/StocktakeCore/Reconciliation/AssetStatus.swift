/// The state of one asset in `cleaned.csv`.
///
/// An asset has one status, by precedence: `unrecorded`, then `missing` or `typo`, then `conflict`, then `ok`. A
/// dispute never hides a presence finding, so the `unrecorded`, `missing` and `typo` assets are as many as the
/// UNRECORDED, MISSING and POSSIBLE_TYPO findings.
public enum AssetStatus: String, Sendable, Hashable {
    /// In the central sheet, sighted, nothing in dispute.
    case ok
    /// In the central sheet but no sighting matched it.
    case missing
    /// Known from some source but not in the central sheet.
    case unrecorded
    /// In the central sheet and sighted, but its identifiers or fields are in dispute.
    case conflict
    /// In the central sheet, not sighted, but one edit from a scanned tag central does not know (POSSIBLE_TYPO).
    /// The scanned tag has no row of its own.
    case typo
}
