import Foundation
import StocktakeCore
import StocktakeJob

/// `stocktake run`: the nightly job over every company account.
enum RunCommand: Command {
    static let noPush = Option("--no-push", help: "Reconcile, but push nothing and upload no reports.")
    static let dryRun = Option(
        "--dry-run", help: "Reconcile into the state folder's run, but push nothing and leave latest alone.")
    static let acceptShrink = Option(
        "--accept-shrink",
        help: """
            Accept tonight's central sheet even though it shrank beyond rules.maxShrink since the last good run, or \
            is empty; for a deliberate cleanup.
            """)
    static let shard = Option(
        "--shard", .text(placeholder: "I/N"),
        help: """
            Only the accounts whose name hashes to shard I of N (0 ≤ I < N), to split them over machines.
            """)
    static let shardCount = Option(
        "--shard-count", .number(placeholder: "N", range: 1...100_000),
        help: """
            Split the accounts into N shards (or STOCKTAKE_SHARDS=N) and take shard I from JOB_COMPLETION_INDEX, as \
            in a Kubernetes Indexed Job.
            """)
    static let parallel = Option(
        "--parallel", .number(placeholder: "N", range: 1...256),
        help: "Accounts reconciled at once (default: the number of cores).")
    static let environmentFile = Option(
        "--env-file", .text(placeholder: "FILE"),
        help: """
            Read tokens (NAME=VALUE lines, as the nightly wrapper's environment file holds them) from FILE, which \
            only its owner may write and others may not read. Each account's process gets only the variable its \
            auth.tokenVariable names.
            """)

    static let simulateFailure = Option(
        "--simulate-failure", .text(placeholder: "KINDS"), repeatable: true,
        help: """
            Rehearse a bad night: make these steps of every account fail exactly as their real failures would, each \
            message labelled "(simulated failure: …)", with nothing sent to a server. KINDS is a comma-separated \
            list of pull, push, upload, token, timeout, disk-full and lock.
            """)

    static let configuration = CommandConfiguration(
        name: "run",
        abstract:
            "Reconcile every account under the jobs folder: pull, reconcile, push, keep the run in the state folder.",
        synopsis: """
            stocktake run [--jobs DIR] [--state DIR] [--account NAME]... [--as-of YYYY-MM-DD] [--no-push]
                          [--dry-run] [--accept-shrink] [--shard I/N | --shard-count N] [--parallel N]
                          [--env-file FILE] [--simulate-failure KINDS]
            """,
        sections: [
            .init(options: [
                SharedOptions.jobs, SharedOptions.state, SharedOptions.accounts, SharedOptions.asOf, noPush, dryRun,
                acceptShrink, shard, shardCount, parallel, environmentFile, simulateFailure,
            ])
        ],
        discussion: """
            Each account runs in a process of its own, with only its own token and within its rules.maxMemoryMB and
            rules.maxMinutes: one that runs out of either, or crashes, fails alone and the others still run.
            Standard output is the nightly mail: a first line that says the whole night ("3 of 5 accounts reconciled, 2
            failed"), the failed and suspect accounts first with their reasons, one line per other account (assets;
            new, open and resolved findings; push result; report), then the summary of each account with new error
            findings.
            Exit status: 0 every account reconciled and pushed; 75 some account failed (its process too), was locked,
            or has a push pending (try again later); 78 an account's configuration or the environment file is wrong;
            64 bad usage. A simulated failure ends the run as the real failure would.
            """)

    static func run(_ arguments: ParsedArguments) throws {
        var options = NightlyRunOptions()
        options.jobs = arguments.value(SharedOptions.jobs) ?? options.jobs
        options.state = arguments.value(SharedOptions.state) ?? options.state
        options.accounts = arguments.distinctValues(SharedOptions.accounts)
        for name in options.accounts {
            if let problem = AccountName.problem(with: name) {
                throw arguments.usageError("--account \(name) is not an account name: it \(problem)")
            }
        }
        options.asOf = arguments.date(SharedOptions.asOf) ?? options.asOf
        options.push = !arguments.flag(Self.noPush)
        options.dryRun = arguments.flag(Self.dryRun)
        options.acceptShrink = arguments.flag(Self.acceptShrink)
        options.simulatedFailures = try simulatedFailures(arguments)
        if let file = arguments.value(Self.environmentFile) {
            options.fileEnvironment = try EnvironmentFile.read(file)
        }
        options.parallel = arguments.number(Self.parallel) ?? ProcessInfo.processInfo.activeProcessorCount
        let environment = ProcessInfo.processInfo.environment
        if let text = arguments.value(Self.shard) {
            guard let shard = Shard(text) else {
                throw arguments.usageError("--shard must be I/N with 0 ≤ I < N, not \"\(text)\"")
            }
            options.shard = shard
        } else if let count = arguments.number(Self.shardCount) ?? environment["STOCKTAKE_SHARDS"].flatMap({ Int($0) })
        {
            guard let text = environment["JOB_COMPLETION_INDEX"], let index = Int(text),
                let shard = Shard(index: index, count: count)
            else {
                throw arguments.usageError(
                    "a shard count needs JOB_COMPLETION_INDEX set to a number from 0 to \(count - 1)")
            }
            options.shard = shard
        }
        try arguments.noPositionals()
        var directory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: options.jobs, isDirectory: &directory), directory.boolValue else {
            throw StocktakeError.missingInput(path: options.jobs, what: "jobs folder")
        }

        // A test hook left in a nightly environment is said once, never obeyed (see `KillPoint`).
        if let reason = KillPoint.ignoredReason(environment: environment) { Log(account: "run")(reason) }
        options.executable = ownExecutable()
        options.forksAccounts = true
        let outcomes = NightlyRun.run(options)
        print(NightlyMail.text(outcomes), terminator: "")
        let status = NightlyRun.exitStatus(outcomes)
        if status != .success { throw CommandExit(status) }
    }

    /// The kinds every `--simulate-failure` names, in their usual order; an unknown kind is a usage error that lists
    /// the kinds.
    static func simulatedFailures(_ arguments: ParsedArguments, option: Option = simulateFailure)
        throws(StocktakeError) -> [SimulatedFailure]
    {
        var kinds: Set<SimulatedFailure> = []
        for text in arguments.values(option) {
            do {
                kinds.formUnion(try SimulatedFailure.list(text))
            } catch {
                throw arguments.usageError(
                    "--simulate-failure takes \(SimulatedFailure.accepted), not \"\(error.name)\"")
            }
        }
        return kinds.sorted()
    }

    /// This program's own file, which each account's child process runs; `nil` (every account in this process)
    /// when /proc is not mounted.
    static func ownExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
