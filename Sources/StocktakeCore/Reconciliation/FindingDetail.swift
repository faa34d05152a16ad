/// What a finding names beyond its columns: the values and rows its sentence lists.
///
/// A finding is data: its code, its identifiers (the key a ledger follows from night to night), its field and
/// values, its rows, and this detail. `FindingMessage` writes its sentence only when a table or report shows it, so
/// the reconciliation never builds text for findings nobody reads, and findings can be compared without it.
public enum FindingDetail: Sendable, Hashable {
    /// A sentence given whole, for findings made outside the reconciler.
    case text(String)
    /// DUPLICATE_TAG and TAG_CNS_MISMATCH: the distinct values of the field, the first one first, with their rows.
    case values([FindingValue])
    /// FIELD_CONFLICT: the distinct values, the cleaned one first, with their rows; `typoOf` is the central tag when
    /// the tag is the scanned half of a POSSIBLE_TYPO pair (and so has no cleaned row).
    case conflict([FindingValue], typoOf: VTTag?)
    /// SHARED_SERIAL, SHARED_MAC and CNS_REUSED: the shared value as written, the assets carrying it with their
    /// rows, and rows that also carry it but could be matched to no asset.
    case holders(key: String, [FindingHolder], stray: [SourceLocation])
    /// POSSIBLE_TYPO: the scanned tag's rows, the central tag's rows in the central sheet, its building, how the
    /// tags differ, and the serials and MACs both carry.
    case typo(
        scanned: [SourceLocation], central: [SourceLocation], building: String?, edit: String,
        shared: [SharedIdentifier])
    /// MISSING: the asset's rows in the central sheet and where to look for it.
    case missing(central: [SourceLocation], building: String?, room: String?)
    /// UNRECORDED, NO_TAG and NO_CNS: the rows the sentence names, in source order.
    case rows([SourceLocation])
    /// STALE: the row of the newest sighting, and the rule it broke.
    case stale(seen: SourceLocation, afterDays: Int, asOf: InventoryDate)
    /// INVALID_VALUE and UNKNOWN_BUILDING: what was wrong with the cell or row, its column and its line.
    case cell(kind: RowIssue.Kind, reason: String, column: String?, line: Int)
    /// DUPLICATE_ROW: the finding's two rows are the first occurrence and its repeat.
    case repeatedRow
}

/// One distinct value of a field on an asset, with the rows that carry it.
public struct FindingValue: Sendable, Hashable {
    public var text: String
    public var locations: [SourceLocation]

    public init(text: String, locations: [SourceLocation]) {
        self.text = text
        self.locations = locations
    }
}

/// An asset that carries a shared identifier: its tag (or, without one, its other identifiers) and its rows that
/// carry the value.
public struct FindingHolder: Sendable, Hashable {
    public var vtTag: VTTag?
    public var serialNumber: SerialNumber?
    public var macAddress: MACAddress?
    public var cnsNumber: CNSNumber?
    public var rows: [SourceLocation]

    public init(
        vtTag: VTTag?, serialNumber: SerialNumber?, macAddress: MACAddress?, cnsNumber: CNSNumber?,
        rows: [SourceLocation]
    ) {
        self.vtTag = vtTag
        self.serialNumber = serialNumber
        self.macAddress = macAddress
        self.cnsNumber = cnsNumber
        self.rows = rows
    }
}

/// A serial or MAC both tags of a POSSIBLE_TYPO pair carry, and rows that also carry it but matched neither.
public struct SharedIdentifier: Sendable, Hashable {
    public var field: CanonicalField
    public var key: String
    public var stray: [SourceLocation]

    public init(field: CanonicalField, key: String, stray: [SourceLocation]) {
        self.field = field
        self.key = key
        self.stray = stray
    }
}
