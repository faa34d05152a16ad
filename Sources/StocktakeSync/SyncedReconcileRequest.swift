import StocktakeCore

/// A reconciliation whose sheets may live on servers: pull them, reconcile, then push the cleaned sheet back.
public struct SyncedReconcileRequest: Sendable {
    /// The local reconciliation; its `central`, `sightings` and `registers` may be URLs or Google addresses.
    public var reconcile: ReconcileRequest
    /// The central sheet's provider when the account names one (`file`, `https`, `google-sheets`, `google-drive`).
    public var centralProvider: String?
    /// Whether to write `cleaned.csv` back to where the central sheet came from, if it did not change meanwhile.
    public var push = false
    /// A folder URL every output file is uploaded to after the run.
    public var reportTo: EndpointURL?
    /// Whether the central sheet is copied into the run's `pulled/` folder even when it is local and nothing is
    /// pushed, so every run keeps the sheet it was made from (the nightly run does).
    public var keepsCentralSnapshot = false
    /// The checks that refuse a night whose evidence is missing or broken (a cut-off, shrunken or empty sheet).
    public var guards = EvidenceGuards()
    /// A push an earlier run started and may not have finished (it was killed): tonight's pull tells which.
    public var unfinishedPush: PushIntent?

    public init(reconcile: ReconcileRequest) {
        self.reconcile = reconcile
    }
}
