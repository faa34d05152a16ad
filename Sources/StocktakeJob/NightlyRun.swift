import Dispatch
import Foundation
import StocktakeCore
import StocktakeSync

/// The nightly job: every account under `Jobs/`, each in isolation, in parallel.
///
/// For each account: check its configuration, take its lock, make a run folder, pull → reconcile → push into it,
/// point `latest` at it, and keep the last runs. A failing account never stops another; a push that fails is
/// recorded and tried again on the next run.
public enum NightlyRun {
    /// Runs the accounts `options` selects and returns one outcome per account, in name order.
    ///
    /// With `options.executable` set, each account runs in a child process of it with the account's own memory and
    /// time limits and only its own token (see ``AccountProcess``): an account whose process runs out of memory or
    /// time, or crashes, fails alone and every other account still gets its line.
    public static func run(_ options: NightlyRunOptions) -> [AccountOutcome] {
        let names = accounts(options)
        let outcomes = ResultSlots<AccountOutcome>(count: names.count)
        let environment = options.executable.map { _ in
            var environment = ChildEnvironment(jobs: options.jobs, fileVariables: options.fileEnvironment)
            // Accounts side by side share the cores: two at once on two cores use one thread each.
            environment.threads = max(1, Parallel.threads / max(1, min(options.parallel, names.count)))
            return environment
        }
        let base = ProcessInfo.processInfo.environment
        let launcher = options.executable.flatMap { executable in
            options.forksAccounts
                ? LauncherConnection.start(
                    executable: executable,
                    environment: AccountProcess.processEnvironment(environment!.environment(base: base, own: nil)))
                : nil
        }
        defer { launcher?.finish() }
        // At most `parallel` accounts at once, even beyond the number of cores: accounts wait on servers as much as
        // they compute. An account in its own process that only waits for its files to reach the disk no longer
        // counts.
        let gate = DispatchSemaphore(value: max(1, options.parallel))
        let group = DispatchGroup()
        for index in names.indices {
            gate.wait()
            let slot = AccountSlot(taken: gate)
            // A thread of its own, not a dispatch queue's: the queues run only as many blocks at once as there are
            // cores, so an account whose process only waits (for the disk, a server) would hold back the next.
            group.enter()
            Thread.detachNewThread {
                defer {
                    slot.giveBack()
                    group.leave()
                }
                if let executable = options.executable, let environment {
                    // An account's process gives its place to the next account once it only waits for the disk.
                    outcomes[index] = AccountProcess.outcome(
                        of: names[index], options: options, executable: executable, environment: environment,
                        base: base, launcher: launcher, didFinishComputing: slot.giveBack)
                } else {
                    outcomes[index] = runAccount(names[index], options: options)
                }
            }
        }
        group.wait()
        return (0..<names.count).map { outcomes[$0]! }
    }

    /// The exit status of a whole run: 78 when a configuration is wrong, else 75 when any account failed, was
    /// skipped or has a push pending, else 0.
    public static func exitStatus(_ outcomes: [AccountOutcome]) -> ExitStatus {
        if outcomes.contains(where: { $0.status == .configuration }) { return .configuration }
        if outcomes.contains(where: { $0.status != .success }) { return .temporaryFailure }
        return .success
    }

    /// The account folders to run: every folder under `jobs` (or the named ones), in this shard.
    static func accounts(_ options: NightlyRunOptions) -> [String] {
        let all = ((try? FileManager.default.contentsOfDirectory(atPath: options.jobs)) ?? [])
            .filter { name in
                var directory: ObjCBool = false
                let path = (options.jobs as NSString).appendingPathComponent(name)
                return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: path, isDirectory: &directory)
                    && directory.boolValue
            }
        let wanted = options.accounts.isEmpty ? all : options.accounts
        return wanted.sorted().filter { name in
            guard let shard = options.shard else { return true }
            guard let account = AccountName(name) else { return shard.index == 0 }
            return shard.contains(account)
        }
    }

    /// Runs one account in this process; `didFinishComputing` is told when all that remains is waiting for its files
    /// to reach the disk (see `ReconcilePipeline.didFinishComputing`).
    static func runAccount(
        _ folderName: String, options: NightlyRunOptions, didFinishComputing: @escaping @Sendable () -> Void = {}
    ) -> AccountOutcome {
        let log = Log(account: folderName, isEnabled: options.logs)
        let folder = (options.jobs as NSString).appendingPathComponent(folderName)
        let config: AccountConfig
        do {
            if let problem = JobsFolder.problem(account: folderName, in: options.jobs) { throw problem }
            config = try AccountConfig.load(folder: folder)
        } catch {
            log("skipped: \(error)")
            return AccountOutcome(account: folderName, status: .configuration, push: "skipped: \(error)")
        }
        let simulation = FailureSimulation(options.simulatedFailures, origin: .commandLine)
            .merging(FailureSimulation(config.testFailureMode, origin: .account))
        if !simulation.isEmpty {
            log(
                "rehearsing a bad night: simulating \(simulation.kinds.map(\.rawValue).joined(separator: ", ")), "
                    + "with nothing of them sent to a server")
        }
        let state = AccountState(root: options.state, account: config.account)
        let lock: AccountLock?
        let rival: AccountLock?
        do {
            // A simulated `lock`: a rival holder takes the account's lock first, so the real attempt finds it held.
            rival = simulation.contains(.lock) ? try state.lock() : nil
            lock = try state.lock()
        } catch {
            log("skipped: \(error)")
            return AccountOutcome(account: folderName, status: error.exitStatus, push: "skipped: \(error)")
        }
        guard let lock else {
            let label = rival.flatMap { _ in simulation.label(.lock) }.map { $0 + " " } ?? ""
            rival?.unlock()
            log("skipped: \(label)another run holds the lock on \(state.lockPath)")
            return AccountOutcome(
                account: folderName, status: .temporaryFailure, push: "skipped: \(label)another run holds its lock")
        }
        defer { lock.unlock() }
        let removed = (try? state.removeIncompleteRuns()) ?? []
        if !removed.isEmpty { log("removed \(counted(removed.count, "incomplete run folder")) left by stopped runs") }
        let partials = state.removeStaleRecordPartials()
        if !partials.isEmpty { log("removed \(counted(partials.count, "partial state file")) left by stopped runs") }
        var pending = state.pendingPush
        let unfinished = state.pushJournal
        let started = Date()
        let run: RunFolder
        do {
            run = try state.newRun(startedAt: started)
        } catch {
            log("failed: \(error)")
            return AccountOutcome(account: folderName, status: error.exitStatus, push: "not run: \(error)")
        }
        let writesState = !options.dryRun
        var request = config.request(
            asOf: options.asOf, outputDirectory: run.path, push: options.push && !options.dryRun)
        request.guards = .nightly(
            baseline: state.centralBaseline(sheet: config.central.sheet), maxShrink: config.maxShrink,
            maxMissingShare: config.maxMissingShare)
        request.guards.acceptsShrink = options.acceptShrink
        request.unfinishedPush = unfinished
        // The ledger of the run `latest` points at is the account's: a dry run or a failed run never changes it.
        request.reconcile.ledger = state.latest?.path(of: "ledger.csv")
        request.reconcile.simulation = simulation
        var outcome = AccountOutcome(account: folderName, status: .success, push: "no push")
        do {
            let factory = try config.connection.factory(
                account: folderName, locations: try locations(config, request), reportTo: request.reportTo,
                simulation: simulation)
            let uploader = ReportUploader(session: factory.session)
            var job = SyncedReconcileJob(
                session: factory.session,
                makeProvider: { location throws(SyncError) in factory.provider(for: location) },
                uploadReports: { files, target throws(SyncError) in try uploader.upload(files, to: target) })
            if writesState { journal(&job, state: state, run: run, started: started) }
            job.didFinishComputing = didFinishComputing
            let result = try job.run(request, log: log)
            if let unfinished, let completed = result.unfinishedPushCompleted {
                pending = settle(
                    unfinished, completed: completed, pending: pending, state: writesState ? state : nil, log: log)
            }
            let reconciliation = result.reconciliation
            outcome.assets = reconciliation.assets.count
            outcome.errors = reconciliation.count(Severity.error)
            outcome.warnings = reconciliation.count(.warning)
            let statuses = reconciliation.statuses
            outcome.new = statuses.count(where: { $0.state == .new })
            outcome.open = statuses.count(where: { $0.state == .open })
            outcome.resolved = reconciliation.ledger.resolved.count
            outcome.acknowledged = reconciliation.acknowledgedCount
            outcome.newErrors = zip(reconciliation.discrepancies, statuses).count(where: { finding, status in
                status.state == .new && finding.severity == .error
            })
            outcome.report =
                config.reportURL.map { $0 + "runs/\(run.id)/report.html" } ?? result.details.path(of: "report.html")
            outcome.summary = result.details.path(of: "summary.txt")
            outcome.status = result.details.exitStatus
            outcome.push = pushSummary(result, request: request, pending: pending, started: started)
            if writesState {
                try state.markLatest(run)
                _ = try state.prune(keeping: config.keepRuns)
                try updatePending(state, result: result, run: run, request: request, pending: pending, started: started)
            }
        } catch let error as any UserFacingError {
            log("failed: \(error)")
            outcome.status = accountStatus(error.exitStatus)
            outcome.push = "failed: \(error)"
            outcome.suspect = (error as? RunRefusal)?.isSuspectNight ?? false
        } catch {
            log("failed: \(error)")
            outcome.status = .temporaryFailure
            outcome.push = "failed: \(error)"
        }
        share(run, of: state, config: config, options: options, outcome: &outcome, log: log)
        return outcome
    }

    /// Gives the run folder to the group that reads the reports (`ReportAccess`); a failure fails the account, whose
    /// outputs are there but only for root.
    private static func share(
        _ run: RunFolder, of state: AccountState, config: AccountConfig, options: NightlyRunOptions,
        outcome: inout AccountOutcome, log: Log
    ) {
        do throws(AccountStateError) {
            guard let access = ReportAccess(reportGroup: config.reportGroup, stateRoot: options.state) else {
                throw .cannotShare(
                    account: config.account, path: run.path, group: config.reportGroup ?? "of \(options.state)",
                    reason: "the group cannot be found")
            }
            try access.share(run, of: state)
        } catch {
            log("failed: \(error)")
            if outcome.status == .success { outcome.status = error.exitStatus }
            outcome.push += "; \(error)"
        }
    }

    /// An account's status after an error: configuration, credential and data problems keep their own status (the
    /// run as a whole still ends with 75 or 78); anything else is worth trying again later.
    static func accountStatus(_ status: ExitStatus) -> ExitStatus {
        switch status {
        case .configuration, .noPermission, .dataError: status
        default: .temporaryFailure
        }
    }

    /// Makes the job record each push in the account's state before the central sheet is replaced, and forget it
    /// once the push is settled, so a run stopped in between is understood by the next one.
    private static func journal(_ job: inout SyncedReconcileJob, state: AccountState, run: RunFolder, started: Date) {
        let account = state.account.text
        job.willPush = { fingerprint, target throws(SyncError) in
            do {
                try state.recordPushJournal(
                    PushIntent(runID: run.id, target: target, fingerprint: fingerprint, started: started))
            } catch {
                throw .refused(
                    account: account, url: state.pushJournalPath, status: 0, detail: "\(error)", phase: .push)
            }
        }
        job.didPush = { try? state.clearPushJournal() }
    }

    /// Settles a push a stopped run left unfinished: if tonight's central sheet is what it pushed, the push had
    /// completed and any pending push is resolved; if not, it never happened and tonight's push (if any) stands.
    /// Returns the pending push that remains. `state` is `nil` in a dry run, which changes nothing.
    private static func settle(
        _ unfinished: PushIntent, completed: Bool, pending: PendingPush?, state: AccountState?, log: Log
    ) -> PendingPush? {
        if completed {
            log("the push of run \(unfinished.runID) to \(unfinished.target) had completed before that run was stopped")
        } else {
            log(
                "the push of run \(unfinished.runID) to \(unfinished.target) had not completed before that run was stopped"
            )
        }
        guard let state else { return completed ? nil : pending }
        try? state.clearPushJournal()
        guard completed else { return pending }
        try? state.clearPendingPush()
        return nil
    }

    private static func locations(_ config: AccountConfig, _ request: SyncedReconcileRequest) throws -> [SheetLocation]
    {
        try [SheetLocation(config.central.location, provider: config.central.provider)]
            + ((request.reconcile.sightings + request.reconcile.registers).map(\.location) + [config.acknowledged]).map
        {
            try SheetLocation($0)
        }
    }

    private static func pushSummary(
        _ result: SyncedReconcileJob.Outcome, request: SyncedReconcileRequest, pending: PendingPush?, started: Date
    ) -> String {
        guard request.push else { return "no push" }
        if let failure = result.failures.first {
            let since = pending.map { RunDetails.timestamp($0.since) } ?? RunDetails.timestamp(started)
            return "push pending since \(since): \(failure)"
        }
        let pushed =
            result.writeBack.changesSheet
            ? "pushed: \(SyncedReconcileJob.summary(of: result.writeBack))" : "up to date, nothing to push"
        if let pending { return pushed + " (was pending since \(RunDetails.timestamp(pending.since)))" }
        return pushed
    }

    /// Where the central sheet lives, without any query string (presigned URLs carry secrets there).
    private static func redacted(_ request: SyncedReconcileRequest) -> String {
        let location = try? SheetLocation(request.reconcile.central, provider: request.centralProvider)
        return location?.description ?? "the central sheet"
    }

    private static func updatePending(
        _ state: AccountState, result: SyncedReconcileJob.Outcome, run: RunFolder, request: SyncedReconcileRequest,
        pending: PendingPush?, started: Date
    ) throws {
        guard request.push else { return }
        if let failure = result.failures.first {
            try state.recordPendingPush(
                PendingPush(
                    since: pending?.since ?? started, runID: run.id, target: redacted(request),
                    reason: failure.description))
        } else if pending != nil {
            try state.clearPendingPush()
        }
    }
}
