/// What a push may change in the central sheet: the account's `push` options.
///
/// A push edits the company's own sheet the way a careful clerk would, so each kind of edit is a separate choice.
/// The defaults normalize and fill but never overwrite a value someone typed, so a disagreement stays a
/// `FIELD_CONFLICT` for the clerk to settle, and never add rows.
public struct WriteBackOptions: Sendable, Hashable {
    /// Rewrite mapped cells in canonical form (tag padding, `C` + digits, MAC form, upper-case serials, ISO dates).
    public var normalize: Bool
    /// Give an empty (or placeholder) mapped cell the merged value.
    public var fill: Bool
    /// Give a non-empty mapped cell the different value of a more authoritative source.
    public var overwrite: Bool
    /// The only canonical fields ever written; `nil` allows every field. A GPS column holding `lat,lon` is written
    /// only when both `latitude` and `longitude` are allowed.
    public var fields: Set<CanonicalField>?
    /// Append assets that are `UNRECORDED` at the end of the sheet.
    public var addUnrecorded: Bool

    /// Creates options; the defaults are those of an account that says nothing under `push`.
    public init(
        normalize: Bool = true, fill: Bool = true, overwrite: Bool = false, fields: Set<CanonicalField>? = nil,
        addUnrecorded: Bool = false
    ) {
        self.normalize = normalize
        self.fill = fill
        self.overwrite = overwrite
        self.fields = fields
        self.addUnrecorded = addUnrecorded
    }

    /// Whether cells of a column read into `target` may be written.
    public func allows(_ target: ColumnTarget) -> Bool {
        let written = target.fields
        guard !written.isEmpty else { return false }
        guard let fields else { return true }
        return written.allSatisfy(fields.contains)
    }
}
