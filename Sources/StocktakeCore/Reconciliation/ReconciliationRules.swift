/// The account's rules for one reconciliation: identifier formats, staleness, the run date and which source wins.
public struct ReconciliationRules: Sendable {
    /// Digits a VT tag is padded to (DOMAIN.md `tagDigits`).
    public var tagDigits: Int = 6
    /// Digits a CNS number is padded to, after its `C`.
    public var cnsDigits: Int = 6
    /// A central asset whose newest sighting is older than this many days before `asOf` is `STALE`.
    public var staleAfterDays: Int = 365
    /// The run date staleness is measured against.
    public var asOf: InventoryDate
    /// The order tag-less rows are joined by. The VT tag always comes first; this orders the rest.
    public var fallbackIdentifiers: [CanonicalField] = [.serialNumber, .macAddress, .cnsNumber]
    /// Per-field source order that overrides the default (sightings, then registers, then central).
    public var precedence: [CanonicalField: FieldPrecedence] = [:]
    /// The most a field, a row, a source and the account's sources together may hold (`rules.maxFieldBytes`,
    /// `rules.maxRows`).
    public var limits = ReadLimits()

    public init(asOf: InventoryDate) {
        self.asOf = asOf
    }
}
