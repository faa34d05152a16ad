/// Why a push changed one cell of the central sheet, as the `reason` column of `changes.csv` names it.
public enum ChangeReason: String, Sendable, Hashable, CaseIterable {
    /// The cell's own value, rewritten in canonical form.
    case normalized
    /// An empty cell given the merged value.
    case filled
    /// A non-empty cell given a more authoritative source's different value.
    case overwritten
    /// A cell of a row appended for an unrecorded asset.
    case added
}
