/// A clerk's word that a finding is known and fine: "the lab's shared MAC is a test rig".
///
/// It holds while the finding's evidence is what it was when acknowledged and, with an `until` date, up to and
/// including that date. Then the finding reopens as `new`, saying why.
public struct Acknowledgement: Sendable, Hashable {
    public var id: FindingID
    public var note: String
    /// The last run date the acknowledgement covers; `nil` for no end.
    public var until: InventoryDate?
    /// Who acknowledged it.
    public var by: String
    public var acknowledgedOn: InventoryDate?
    /// The evidence fingerprint acknowledged; empty when the row was written by hand (the ledger then keeps the
    /// evidence of the first run it covered).
    public var evidence: String

    public init(
        id: FindingID, note: String, until: InventoryDate? = nil, by: String = "",
        acknowledgedOn: InventoryDate? = nil, evidence: String = ""
    ) {
        self.id = id
        self.note = note
        self.until = until
        self.by = by
        self.acknowledgedOn = acknowledgedOn
        self.evidence = evidence
    }

    /// "acknowledged on 2026-11-20 by Dana Clerk (lab test rig)": who said what, for messages.
    var spoken: String {
        var text = "acknowledged"
        if let acknowledgedOn { text += " on \(acknowledgedOn)" }
        if !by.isEmpty { text += " by \(by)" }
        if !note.isEmpty { text += " (\(note))" }
        return text
    }
}
