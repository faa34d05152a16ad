/// One finding in an account's ledger: its id, what defines it, when it was first and last seen, and where it
/// stands. The ledger keeps the findings of the latest run and those resolved in the last year.
public struct LedgerEntry: Sendable, Hashable {
    public var id: FindingID
    public var code: DiscrepancyCode
    /// The identifiers that define the finding (`FindingKey.key(of:)`).
    public var key: String
    public var firstSeen: InventoryDate
    public var lastSeen: InventoryDate
    public var state: FindingState
    /// The run date it was found gone, for `resolved` and `fixed_by_push`.
    public var resolvedOn: InventoryDate?
    /// The fingerprint of what the finding rested on when last seen (`FindingKey.evidence(of:)`).
    public var evidence: String
    /// The evidence an acknowledgement covers, when one applies; a different evidence reopens the finding.
    public var acknowledgedEvidence: String
    /// Whether the run's push changed or added the row of the finding's asset in the central sheet.
    public var pushed: Bool
    /// The finding's columns as `discrepancies.csv` last had them, for `resolved.csv`.
    public var vtTag: String
    public var cnsNumber: String
    public var serialNumber: String
    public var macAddress: String
    public var field: String
    public var value: String
    public var expected: String
    /// Why the state is what it is, when it needs saying: a reopening, an acknowledgement's note.
    public var note: String

    public init(
        id: FindingID, code: DiscrepancyCode, key: String, firstSeen: InventoryDate, lastSeen: InventoryDate,
        state: FindingState, resolvedOn: InventoryDate? = nil, evidence: String, acknowledgedEvidence: String = "",
        pushed: Bool = false, vtTag: String = "", cnsNumber: String = "", serialNumber: String = "",
        macAddress: String = "", field: String = "", value: String = "", expected: String = "", note: String = ""
    ) {
        self.id = id
        self.code = code
        self.key = key
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.state = state
        self.resolvedOn = resolvedOn
        self.evidence = evidence
        self.acknowledgedEvidence = acknowledgedEvidence
        self.pushed = pushed
        self.vtTag = vtTag
        self.cnsNumber = cnsNumber
        self.serialNumber = serialNumber
        self.macAddress = macAddress
        self.field = field
        self.value = value
        self.expected = expected
        self.note = note
    }
}
