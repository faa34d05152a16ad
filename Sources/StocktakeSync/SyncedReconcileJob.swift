import Foundation
import StocktakeCore

/// Reconciles one account whose sheets may live on servers: pull → read → reconcile → write → push → report.
///
/// Remote sheets are pulled into the run's `pulled/` folder first, so the central sheet as it was is kept before
/// any push. A push that fails never loses the outputs: they are written first, and the failure is recorded in
/// `run.json` and `summary.txt` with exit status 75 (or 77 for rejected credentials).
public struct SyncedReconcileJob: Sendable {
    public var session: AccountSession
    /// Makes the provider of a location; tests replace it.
    public var makeProvider: @Sendable (SheetLocation) throws(SyncError) -> any SheetProvider
    /// Uploads the outputs to `reportTo`; tests replace it.
    public var uploadReports:
        @Sendable (_ files: [(name: String, bytes: [UInt8])], _ to: EndpointURL) throws(SyncError) -> Void
    /// Records a push about to replace the central sheet (its bytes' fingerprint and target) before it is written;
    /// a push is not made when this throws. The nightly run keeps it in the account's state.
    public var willPush: @Sendable (_ fingerprint: String, _ target: String) throws(SyncError) -> Void = { _, _ in }
    /// Forgets the record once the push has succeeded or definitely failed.
    public var didPush: @Sendable () -> Void = {}
    /// Told once when what remains of the run is waiting for the disk (see `ReconcilePipeline.didFinishComputing`).
    public var didFinishComputing: @Sendable () -> Void = {}
    /// Flushes a pulled sheet's descriptor to disk: 0, or the errno of the failure. Tests give one that fails.
    var synchronize: @Sendable (Int32) -> Int32 = AtomicFileWriter.synchronize

    public init(
        session: AccountSession,
        makeProvider: @escaping @Sendable (SheetLocation) throws(SyncError) -> any SheetProvider,
        uploadReports: @escaping @Sendable ([(name: String, bytes: [UInt8])], EndpointURL) throws(SyncError) -> Void
    ) {
        self.session = session
        self.makeProvider = makeProvider
        self.uploadReports = uploadReports
    }

    /// What the run produced, and how it ended.
    public struct Outcome: Sendable {
        public var reconciliation: Reconciliation
        public var details: RunDetails
        /// Pushes and uploads that failed; the outputs are kept.
        public var failures: [SyncError]
        /// Whether the unfinished push of the request had completed before its run was stopped; `nil` without one.
        public var unfinishedPushCompleted: Bool?
        /// The edit a push makes (or made) to the central sheet, as listed in `changes.csv`.
        public var writeBack: WriteBackPlan
    }

    /// Runs the request. Throws (`SyncError`, `RunRefusal` or `StocktakeError`) only when no outputs could be made: a
    /// source could not be pulled or read, or the night's evidence was refused. Push and upload failures are in the
    /// outcome.
    public func run(_ request: SyncedReconcileRequest, log: Log) throws -> Outcome {
        let night = Night()
        let guards = request.guards
        let pulledFolder = (request.reconcile.outputDirectory as NSString).appendingPathComponent("pulled")
        try? FileManager.default.removeItem(atPath: pulledFolder)
        var pipeline = ReconcilePipeline(
            pullCentral: { local, details, log in
                try pullCentral(&local, details: &details, request: request, into: pulledFolder, night: night, log: log)
            },
            pullSources: { local, log in
                local.sightings = try pullAll(
                    local.sightings, into: pulledFolder, guards: guards, night: night, log: log)
                local.registers = try pullAll(
                    local.registers, into: pulledFolder, guards: guards, night: night, log: log)
                if let acknowledgements = local.acknowledgements {
                    local.acknowledgements = try pullAll(
                        [SourceEntry(acknowledgements)], into: pulledFolder, guards: guards, night: night, log: log
                    )
                    .first?.location
                }
            },
            check: { configured, local, reconciliation in
                // The pulled sheets flushed while they were read; they are on disk before anything is written.
                for file in night.pulledFiles { try file.waitForFlush() }
                try check(configured, local: local, reconciliation: reconciliation, guards: guards)
            },
            push: { plan, details, log in
                if request.push, let provider = night.centralProvider, let pulled = night.pulledCentral {
                    push(plan, to: provider, over: pulled, details: &details, night: night, log: log)
                }
                details.exitStatus = Self.exitStatus(night.failures)
            },
            pushesCentral: request.push,
            publish: { details, log in
                guard let target = request.reportTo else { return false }
                return upload(to: target, details: &details, night: night, log: log)
            })
        pipeline.publishes = request.reportTo != nil
        pipeline.didFinishComputing = didFinishComputing
        let result = try pipeline.run(request.reconcile, log: log)
        return Outcome(
            reconciliation: result.reconciliation, details: result.details, failures: night.failures,
            unfinishedPushCompleted: night.unfinishedPushCompleted,
            writeBack: result.writeBack)
    }

    /// What the stages of one run learn and later stages need.
    private final class Night {
        var centralProvider: (any SheetProvider)?
        var pulledCentral: PulledSheet?
        var unfinishedPushCompleted: Bool?
        var failures: [SyncError] = []
        /// The sheets pulled into `pulled/`, in place and still flushing; waited for before anything is written.
        var pulledFiles: [AtomicFileWriter] = []
    }

    /// The pipeline's first stage: pulls the central sheet (when it is remote, pushed or kept as a snapshot), checks
    /// it arrived whole and did not shrink, and keeps it in `pulled/`; returns its bytes.
    private func pullCentral(
        _ local: inout ReconcileRequest, details: inout RunDetails, request: SyncedReconcileRequest,
        into pulledFolder: String, night: Night, log: Log
    ) throws -> [UInt8]? {
        let location = try Self.location(local.central, provider: request.centralProvider, account: session.account)
        guard !location.isLocal || request.push || request.keepsCentralSnapshot else {
            return nil
        }
        let provider = try makeProvider(location)
        var centralSheet: String?
        if case .named(let name) = local.centralSheet { centralSheet = name }
        let (sheet, integrity) = try pull(
            provider, at: location, sheet: centralSheet, limits: local.rules.limits, guards: request.guards, log: log)
        log("pulled the central sheet from \(provider.location): \(counted(sheet.bytes.count, "byte"))")
        if let unfinished = request.unfinishedPush {
            let completed = PushIntent.fingerprint(of: sheet.bytes) == unfinished.fingerprint
            night.unfinishedPushCompleted = completed
            details.pushes.append(
                "cleaned.csv of run \(unfinished.runID) → \(unfinished.target) "
                    + (completed ? "had completed" : "had NOT completed") + " before that run was stopped")
        }
        // A sheet the reader refuses (an HTML page, a binary file) has no rows to hold against the last night's:
        // reading it says what it is.
        var isUnreadable = false
        if case .unreadable? = integrity.problem { isUnreadable = true }
        if !isUnreadable { try check(central: integrity.dataRows, at: provider.location, guards: request.guards) }
        local.central = try save(sheet, in: pulledFolder, as: "central", night: night)
        KillPoint.reached(.afterPull)
        night.centralProvider = provider
        night.pulledCentral = sheet
        return sheet.bytes
    }

    /// Refuses the night when a source gave nothing or most central assets went unseen.
    private func check(
        _ configured: ReconcileRequest, local: ReconcileRequest, reconciliation: Reconciliation, guards: EvidenceGuards
    ) throws {
        if guards.refusesEmptySources {
            try checkSources(configured, pulled: local, reconciliation: reconciliation)
        }
        if let limit = guards.maxMissingShare, !configured.sightings.isEmpty {
            let statuses = reconciliation.countsByStatus
            let central = reconciliation.assets.count - (statuses[.unrecorded] ?? 0)
            let missing = statuses[.missing] ?? 0
            if central > 0 && Double(missing) > Double(central) * limit {
                throw RunRefusal.tooManyMissing(
                    account: session.account, missing: missing, central: central, limit: limit)
            }
        }
    }

    /// Why the planned edit of the sheet at `location` must not be pushed: a sheet that is not UTF-8 (its untouched
    /// bytes would not be kept), or a worksheet the edit cannot be placed in exactly; `nil` when it may be.
    private func refusal(of plan: WriteBackPlan, at location: String) -> SyncError? {
        guard plan.isPushable else {
            return .centralNotUTF8(account: session.account, url: location, encoding: plan.sheetEncoding)
        }
        return plan.refusal.map { .notEditable(account: session.account, url: location, reason: $0.reason) }
    }

    /// Pushes the planned edit when it changes anything, recording it in the journal first.
    private func push(
        _ plan: WriteBackPlan, to provider: any SheetProvider, over pulled: PulledSheet, details: inout RunDetails,
        night: Night, log: Log
    ) {
        guard plan.changesSheet else {
            details.pushes.append("central sheet → \(provider.location): up to date, nothing to push")
            log("the central sheet at \(provider.location) is up to date: nothing to push")
            return
        }
        if let error = refusal(of: plan, at: provider.location) {
            night.failures.append(error)
            details.pushes.append("central sheet NOT pushed: \(error)")
            log("push refused: \(error)")
            return
        }
        do throws(SyncError) {
            let sheet = plan.editedSheet()
            try willPush(PushIntent.fingerprint(of: sheet), provider.location)
            KillPoint.reached(.afterPushJournal)
            defer { didPush() }
            try provider.push(sheet, over: pulled)
            KillPoint.reached(.afterPush)
            details.pushedCentral = true
            details.pushes.append("central sheet → \(provider.location): \(Self.summary(of: plan))")
            log("pushed \(Self.summary(of: plan)) to \(provider.location)")
        } catch {
            night.failures.append(error)
            details.pushes.append("central sheet NOT pushed: \(error)")
            log("push failed: \(error)")
        }
    }

    /// Uploads the outputs to `target`; returns whether it failed (the reports then say so).
    private func upload(to target: EndpointURL, details: inout RunDetails, night: Night, log: Log) -> Bool {
        let files = ReconcileJob.outputFiles.compactMap { name -> (name: String, bytes: [UInt8])? in
            FileManager.default.contents(atPath: details.path(of: name)).map { (name, Array($0)) }
        }
        do throws(SyncError) {
            try uploadReports(files, target)
            log("uploaded \(counted(files.count, "report file")) to \(target.redacted)")
            return false
        } catch {
            night.failures.append(error)
            details.pushes.append("reports NOT uploaded to \(target.redacted): \(error)")
            details.exitStatus = Self.exitStatus(night.failures)
            log("report upload failed: \(error)")
            return true
        }
    }

    /// Pulls a sheet, and pulls it again when it arrives cut off (a last row shorter than the header, a quoted field
    /// still open): a server that closes the connection early without a Content-Length looks like a finished
    /// transfer. Google Sheets' values arrive as JSON, whose rows are ragged by nature, so only a sheet pulled as
    /// a file is checked for a short last row.
    private func pull(
        _ provider: any SheetProvider, at location: SheetLocation, sheet name: String? = nil,
        limits: ReadLimits = ReadLimits(), guards: EvidenceGuards, log: Log
    ) throws -> (PulledSheet, SheetIntegrity) {
        var attempt = 1
        while true {
            let sheet = try provider.pull()
            let integrity = SheetIntegrity.check(sheet.bytes, fileName: sheet.fileName, sheet: name, limits: limits)
            guard let problem = integrity.problem, Self.isCutOff(problem, arrivingAsFile: location.arrivesAsFile) else {
                return (sheet, integrity)
            }
            log("\(provider.location) arrived incomplete; pull \(attempt) of \(guards.pullAttempts): \(problem)")
            guard attempt < guards.pullAttempts else {
                throw RunRefusal.incompleteTransfer(
                    account: session.account, location: provider.location, problem: problem.description,
                    attempts: attempt)
            }
            session.client.sleep(Double(attempt))
            attempt += 1
        }
    }

    /// Whether `problem` means the transfer broke off, so pulling again may help. A UTF-16 file stays one (the
    /// reader refuses it with its own message), and a short last row counts only for sheets that arrive as files.
    static func isCutOff(_ problem: SheetIntegrity.Problem, arrivingAsFile: Bool) -> Bool {
        switch problem {
        case .openQuote: true
        case .shortLastRow: arrivingAsFile
        case .unsupportedEncoding, .unreadable: false
        case .cutOffWorkbook: true
        }
    }

    /// Refuses a central sheet that shrank beyond `maxShrink` since the last good run (a drop of fewer than
    /// `EvidenceGuards.smallestShrink` rows is a clerk's ordinary cleanup of a small sheet, unless it empties it),
    /// or that is empty on a first night.
    private func check(central rows: Int, at location: String, guards: EvidenceGuards) throws(RunRefusal) {
        guard !guards.acceptsShrink else { return }
        if let baseline = guards.baseline {
            let drop = baseline.rows - rows
            let shrank = Double(rows) < Double(baseline.rows) * (1 - guards.maxShrink)
            if shrank && (drop >= EvidenceGuards.smallestShrink || rows == 0) {
                throw .centralShrank(
                    account: session.account, location: location, rows: rows, baseline: baseline,
                    limit: guards.maxShrink)
            }
        } else if rows == 0 && guards.refusesEmptyCentral {
            throw .centralEmpty(account: session.account, location: location)
        }
    }

    /// Refuses the night when a configured sighting or register entry (a file, a folder, an address) gave no data
    /// rows: a share that is not mounted, a folder of XLSX files, an export with only its header.
    private func checkSources(
        _ configured: ReconcileRequest, pulled: ReconcileRequest, reconciliation: Reconciliation
    ) throws {
        var rowsByPath: [String: Int] = [:]
        for input in reconciliation.inputs { rowsByPath[input.file.path, default: 0] += input.rows }
        let entries =
            zip(configured.sightings, pulled.sightings).map { ($0, $1, SourceRole.sighting) }
            + zip(configured.registers, pulled.registers).map { ($0, $1, SourceRole.register) }
        for (entry, pulledEntry, role) in entries {
            let files = try ReconcileJob.expand(pulledEntry.location)
            guard files.allSatisfy({ (rowsByPath[$0] ?? 0) == 0 }) else { continue }
            let location = (try? SheetLocation(entry.location))?.description ?? entry.location
            throw RunRefusal.sourceEmpty(account: session.account, role: role, location: location, files: files.count)
        }
    }

    /// "3 cells changed, 1 row added": what a push changes in the central sheet.
    public static func summary(of plan: WriteBackPlan) -> String {
        "\(counted(plan.changes.changedCellCount, "cell")) changed, \(counted(plan.changes.addedRowCount, "row")) added"
    }

    /// 0 when everything went out, 77 when credentials were rejected, else 75 (outputs kept, try again later).
    static func exitStatus(_ failures: [SyncError]) -> ExitStatus {
        if failures.isEmpty { return .success }
        if failures.contains(where: { $0.exitStatus == .noPermission }) { return .noPermission }
        // A sheet stocktake does not write back stays so until a clerk saves it again: retrying does not help.
        if failures.contains(where: { $0.exitStatus == .dataError }) { return .dataError }
        return .temporaryFailure
    }

    static func location(_ text: String, provider: String?, account: String) throws(SyncError) -> SheetLocation {
        do {
            return try SheetLocation(text, provider: provider)
        } catch {
            throw .unreachable(account: account, error: error, phase: .pull)
        }
    }

    /// Pulls every remote entry into `folder`; local paths and folders stay as they are.
    private func pullAll(
        _ entries: [SourceEntry], into folder: String, guards: EvidenceGuards, night: Night, log: Log
    ) throws -> [SourceEntry] {
        var result: [SourceEntry] = []
        for entry in entries {
            let location = try Self.location(entry.location, provider: nil, account: session.account)
            guard !location.isLocal else {
                result.append(entry)
                continue
            }
            let provider = try makeProvider(location)
            let (sheet, _) = try pull(provider, at: location, guards: guards, log: log)
            log("pulled \(provider.location): \(counted(sheet.bytes.count, "byte"))")
            result.append(entry.relocated(to: try save(sheet, in: folder, as: nil, night: night)))
        }
        return result
    }

    /// Writes a pulled sheet into `folder` under a name that is unique there; returns its path.
    private func save(_ sheet: PulledSheet, in folder: String, as baseName: String?, night: Night)
        throws(StocktakeError) -> String
    {
        try AtomicFile.makeDirectory(folder)
        let original = sheet.fileName.isEmpty ? "sheet.csv" : (sheet.fileName as NSString).lastPathComponent
        let fileExtension = (original as NSString).pathExtension.isEmpty ? "csv" : (original as NSString).pathExtension
        let stem = baseName ?? (original as NSString).deletingPathExtension
        var name = "\(stem).\(fileExtension)"
        var number = 2
        while FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(name)) {
            name = "\(stem)-\(number).\(fileExtension)"
            number += 1
        }
        let path = (folder as NSString).appendingPathComponent(name)
        // Read again at once, by the reconciliation: its pages stay in memory, and it is read while it flushes.
        let file = try AtomicFileWriter(path: path, keepingCached: true)
        try file.write(sheet.bytes)
        try file.takeNameFlushingLater(synchronizing: synchronize)
        night.pulledFiles.append(file)
        return path
    }
}
