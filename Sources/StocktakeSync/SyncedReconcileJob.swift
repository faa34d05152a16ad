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
    }

    /// Runs the request. Throws (`SyncError` or `StocktakeError`) only when no outputs could be made: a source could
    /// not be pulled or read. Push and upload failures are in the outcome.
    public func run(_ request: SyncedReconcileRequest, log: Log) throws -> Outcome {
        var local = request.reconcile
        let pulledFolder = (local.outputDirectory as NSString).appendingPathComponent("pulled")
        try? FileManager.default.removeItem(atPath: pulledFolder)
        let centralLocation = try Self.location(
            local.central, provider: request.centralProvider, account: session.account)
        var centralProvider: (any SheetProvider)?
        var pulledCentral: PulledSheet?
        if !centralLocation.isLocal || request.push || request.keepsCentralSnapshot {
            let provider = try makeProvider(centralLocation)
            let sheet = try provider.pull()
            log("pulled the central sheet from \(provider.location): \(counted(sheet.bytes.count, "byte"))")
            local.central = try save(sheet, in: pulledFolder, as: "central")
            centralProvider = provider
            pulledCentral = sheet
        }
        local.sightings = try pullAll(local.sightings, into: pulledFolder, log: log)
        local.registers = try pullAll(local.registers, into: pulledFolder, log: log)

        var details = RunDetails(account: local.account, started: Date(), outputDirectory: local.outputDirectory)
        let reconciliation = try ReconcileJob.reconcile(local, details: &details, log: log)
        try ReconcileJob.writeTables(reconciliation, details: &details)
        var failures: [SyncError] = []
        if request.push, let provider = centralProvider, let pulled = pulledCentral {
            do throws(SyncError) {
                let pulledRows = reconciliation.inputs.first { $0.file.role == .central }?.rows ?? 0
                let cleanedRows = reconciliation.assets.count
                if Double(cleanedRows) < Double(pulledRows) * (1 - request.maxShrink) {
                    throw SyncError.shrinkRefused(
                        account: session.account, url: provider.location, pulledRows: pulledRows,
                        cleanedRows: cleanedRows, limit: request.maxShrink)
                }
                try provider.push(CleanedTable.csv(reconciliation), over: pulled)
                details.pushes.append("cleaned.csv → \(provider.location)")
                log("pushed cleaned.csv to \(provider.location)")
            } catch {
                failures.append(error)
                details.pushes.append("cleaned.csv NOT pushed: \(error)")
                log("push failed: \(error)")
            }
        }
        details.exitStatus = Self.exitStatus(failures)
        try ReconcileJob.writeReports(reconciliation, details: &details)
        if let target = request.reportTo {
            let files = ReconcileJob.outputFiles.compactMap { name -> (name: String, bytes: [UInt8])? in
                FileManager.default.contents(atPath: details.path(of: name)).map { (name, Array($0)) }
            }
            do throws(SyncError) {
                try uploadReports(files, target)
                log("uploaded \(counted(files.count, "report file")) to \(target.redacted)")
            } catch {
                failures.append(error)
                details.pushes.append("reports NOT uploaded to \(target.redacted): \(error)")
                details.exitStatus = Self.exitStatus(failures)
                log("report upload failed: \(error)")
                try ReconcileJob.writeReports(reconciliation, details: &details)
            }
        }
        log(
            "\(counted(reconciliation.assets.count, "asset")), \(counted(reconciliation.count(Severity.error), "error")), "
                + "\(counted(reconciliation.count(.warning), "warning")); outputs in \(local.outputDirectory)")
        return Outcome(reconciliation: reconciliation, details: details, failures: failures)
    }

    /// 0 when everything went out, 77 when credentials were rejected, else 75 (outputs kept, try again later).
    static func exitStatus(_ failures: [SyncError]) -> ExitStatus {
        if failures.isEmpty { return .success }
        if failures.contains(where: { $0.exitStatus == .noPermission }) { return .noPermission }
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
    private func pullAll(_ entries: [String], into folder: String, log: Log) throws -> [String] {
        var result: [String] = []
        for entry in entries {
            let location = try Self.location(entry, provider: nil, account: session.account)
            guard !location.isLocal else {
                result.append(entry)
                continue
            }
            let provider = try makeProvider(location)
            let sheet = try provider.pull()
            log("pulled \(provider.location): \(counted(sheet.bytes.count, "byte"))")
            result.append(try save(sheet, in: folder, as: nil))
        }
        return result
    }

    /// Writes a pulled sheet into `folder` under a name that is unique there; returns its path.
    private func save(_ sheet: PulledSheet, in folder: String, as baseName: String?) throws(StocktakeError) -> String {
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
        try AtomicFile.write(sheet.bytes, to: path)
        return path
    }
}
