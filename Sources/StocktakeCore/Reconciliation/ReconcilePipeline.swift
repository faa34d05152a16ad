import Foundation

/// The one sequence every reconciliation runs, whoever starts it: pull → read → reconcile → check → write the tables
/// → plan the write-back → push → write the reports → publish.
///
/// `stocktake reconcile`, the nightly run and the tests all go through `run(_:log:)`; what differs is plugged in as
/// stages. The local pipeline (`ReconcileJob.run`) reads the central sheet from its file and pushes nothing; the
/// synced one pulls sheets from their providers, refuses a night without evidence, and pushes the planned edit.
public struct ReconcilePipeline {
    /// Fetches the central sheet and returns its bytes, pointing `request.central` at a local copy when it was pulled;
    /// `nil` when the sheet is a local file, read once the reconciliation has checked it.
    public var pullCentral:
        (_ request: inout ReconcileRequest, _ details: inout RunDetails, _ log: Log) throws -> [UInt8]?
    /// Fetches the other sheets, pointing their entries at local copies.
    public var pullSources: (_ request: inout ReconcileRequest, _ log: Log) throws -> Void
    /// Refuses a reconciliation whose evidence is missing, before anything is written.
    public var check:
        (_ configured: ReconcileRequest, _ local: ReconcileRequest, _ result: Reconciliation) throws -> Void
    /// Pushes the planned edit of the central sheet and records what happened in the details.
    public var push: (_ plan: WriteBackPlan, _ details: inout RunDetails, _ log: Log) -> Void
    /// Whether `push` may change the central sheet. When it may, every output written before it (the tables and
    /// `changes.csv`) is on disk under its name, its folder flushed, before it runs; when it may not, those files take
    /// their names with the reports, their flushes waiting for the disk while the plan and the reports are made.
    public var pushesCentral: Bool
    /// Publishes the written outputs (uploads them); returns whether the reports must be written again because the
    /// details changed.
    public var publish: (_ details: inout RunDetails, _ log: Log) -> Bool
    /// Whether `publish` may upload the outputs. When it may not, the run's computing ends with the reports.
    public var publishes = false
    /// Called once, when all that remains of the run is waiting for its files to reach the disk: the reports are made
    /// and nothing more is sent to a server. The nightly run lets the next account start then, instead of leaving a
    /// core idle through the flushes. Not called when the run fails before that point.
    public var didFinishComputing: () -> Void = {}

    /// The local pipeline: the central sheet is read from its file, nothing is checked, pushed or published. A
    /// pipeline given a `push` says with `pushesCentral` whether it may change the central sheet; left `true`, the
    /// outputs are in place before `push` runs whatever it does.
    public init(
        pullCentral: @escaping (inout ReconcileRequest, inout RunDetails, Log) throws -> [UInt8]? = { _, _, _ in nil },
        pullSources: @escaping (inout ReconcileRequest, Log) throws -> Void = { _, _ in },
        check: @escaping (ReconcileRequest, ReconcileRequest, Reconciliation) throws -> Void = { _, _, _ in },
        push: @escaping (WriteBackPlan, inout RunDetails, Log) -> Void = { _, _, _ in },
        pushesCentral: Bool = true,
        publish: @escaping (inout RunDetails, Log) -> Bool = { _, _ in false }
    ) {
        self.pullCentral = pullCentral
        self.pullSources = pullSources
        self.check = check
        self.push = push
        self.pushesCentral = pushesCentral
        self.publish = publish
    }

    /// What one run made: the reconciliation, the run's details and the planned edit of the central sheet.
    public struct Result {
        public var reconciliation: Reconciliation
        public var details: RunDetails
        public var writeBack: WriteBackPlan
    }

    /// Runs every stage in order; throws when an input or output is unusable or a stage refuses the run, before
    /// anything of this run is written.
    public func run(_ request: ReconcileRequest, log: Log) throws -> Result {
        var local = request
        var details = RunDetails(account: request.account, started: Date(), outputDirectory: request.outputDirectory)
        details.displayName = request.displayName ?? request.account
        details.timeZone = request.timeZone
        details.simulation = request.simulation
        // Before anything is read: a local source that leads outside the allowed folders is never opened.
        try request.allowedRoots?.check(request)
        let central = try pullCentral(&local, &details, log)
        try pullSources(&local, log)
        var reconciliation = try ReconcileJob.reconcile(local, details: &details, log: log)
        try check(request, local, reconciliation)
        KillPoint.reached(.afterReconcile)
        // The tables and changes.csv wait here, flushing, to take their names (in the order they were written) before
        // the push or with the reports; whatever fails first, the files before it take their names.
        let pending = PendingOutputs()
        let messages: [String]
        let plan: WriteBackPlan
        do {
            messages = try ReconcileJob.writeTables(reconciliation, details: &details, deferringTo: pending)
            plan = try ReconcileJob.planWriteBack(
                central ?? ReconcileJob.centralBytes(local.central), fileName: local.central, request: local,
                reconciliation: reconciliation, details: &details, deferringTo: pending)
            if pushesCentral {
                try pending.commit()
                AtomicFile.synchronizeFolder(details.outputDirectory)
            }
        } catch {
            if !pending.isEmpty {
                try pending.commit()
                AtomicFile.synchronizeFolder(details.outputDirectory)
            }
            throw error
        }
        push(plan, &details, log)
        if details.pushedCentral { reconciliation.ledger.markPushed(tagNumbers: plan.changes.changedTagNumbers) }
        // The findings' sentences were made for the tables; the report uses them again (the findings do not change
        // between the two).
        try ReconcileJob.writeReports(
            reconciliation, details: &details, messages: messages, committingFirst: pending,
            beforeWaiting: publishes ? {} : didFinishComputing)
        if publish(&details, log) {
            try ReconcileJob.writeReports(
                reconciliation, details: &details, messages: messages, committingFirst: nil,
                beforeWaiting: didFinishComputing)
        } else if publishes {
            didFinishComputing()
        }
        log(
            "\(counted(reconciliation.assets.count, "asset")), \(counted(reconciliation.count(Severity.error), "error")), "
                + "\(counted(reconciliation.count(.warning), "warning")); outputs in \(request.outputDirectory)")
        return Result(reconciliation: reconciliation, details: details, writeBack: plan)
    }
}
