/// The checks that refuse a night whose evidence is missing or broken, before it is reconciled or pushed.
///
/// The nightly run turns every check on; `stocktake reconcile` checks that pulled sheets are complete, and applies
/// the others only when it pushes.
public struct EvidenceGuards: Sendable, Hashable {
    /// The central sheet of the last good run; `nil` on an account's first night.
    public var baseline: CentralBaseline?
    /// Accept tonight's central sheet however much it shrank, or that it is empty (`--accept-shrink`, one night).
    public var acceptsShrink = false
    /// Refuse a central sheet with more than this share fewer rows than the baseline's (`rules.maxShrink`).
    public var maxShrink = 0.2
    /// Refuse a central sheet with no data rows when no baseline vouches for it.
    public var refusesEmptyCentral = false
    /// Refuse a sighting or register source (a file, folder or address as configured) that gives no data rows.
    public var refusesEmptySources = false
    /// Refuse a night where more than this share of the central assets are `MISSING`; `nil` for no limit.
    public var maxMissingShare: Double?
    /// Pulls of a sheet that arrives cut off, the first included, before the account fails.
    public var pullAttempts = 3

    /// The smallest drop in rows that counts as a shrink: removing a few rows of a small sheet is ordinary upkeep.
    public static let smallestShrink = 10

    public init() {}

    /// Every check on, with the account's limits: what the nightly run uses.
    public static func nightly(baseline: CentralBaseline?, maxShrink: Double, maxMissingShare: Double) -> Self {
        var guards = EvidenceGuards()
        guards.baseline = baseline
        guards.maxShrink = maxShrink
        guards.refusesEmptyCentral = true
        guards.refusesEmptySources = true
        guards.maxMissingShare = maxMissingShare
        return guards
    }
}
