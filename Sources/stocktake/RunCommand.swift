import Foundation
import StocktakeCore
import StocktakeJob

/// `stocktake run`: the nightly job over every company account.
enum RunCommand {
    static let usage = """
        Reconcile every account under the jobs folder: pull, reconcile, push, keep the run in the state folder.

        Usage:
            stocktake run [--jobs DIR] [--state DIR] [--account NAME]... [--as-of YYYY-MM-DD] [--no-push]
                          [--dry-run] [--accept-shrink] [--shard I/N | --shard-count N] [--parallel N]
                          [--env-file FILE]

        Options:
            --jobs DIR          The account folders, one per company, each with account.json (default Jobs).
            --state DIR         Where each account's runs, latest run, lock and pending push live (default state).
            --account NAME      Only this account; repeat for more.
            --as-of YYYY-MM-DD  The run date staleness is measured against (default today, UTC).
            --no-push           Reconcile, but push nothing and upload no reports.
            --dry-run           Reconcile into the state folder's run, but push nothing and leave latest alone.
            --accept-shrink     Accept tonight's central sheet even though it shrank beyond rules.maxShrink since the
                                last good run, or is empty; for a deliberate cleanup.
            --shard I/N         Only the accounts whose name hashes to shard I of N (0 ≤ I < N), to split them over
                                machines. With --shard-count N (or STOCKTAKE_SHARDS=N), I comes from
                                JOB_COMPLETION_INDEX, as in a Kubernetes Indexed Job.
            --parallel N        Accounts reconciled at once (default: the number of cores).
            --env-file FILE     Read tokens (NAME=VALUE lines, as the nightly wrapper's environment file holds them)
                                from FILE, which only its owner may write and others may not read. Each account's
                                process gets only the variable its auth.tokenVariable names.

        Each account runs in a process of its own, with only its own token and within its rules.maxMemoryMB and
        rules.maxMinutes: one that runs out of either, or crashes, fails alone and the others still run.
        Standard output is the nightly mail: a first line that says the whole night ("3 of 5 accounts reconciled, 2
        failed"), the failed and suspect accounts first with their reasons, one line per other account (assets; new,
        open and resolved findings; push result; report), then the summary of each account with new error findings.
        Exit status: 0 every account reconciled and pushed; 75 some account failed (its process too), was locked,
        or has a push pending (try again later); 78 an account's configuration or the environment file is wrong;
        64 bad usage.
        """

    static func run(_ arguments: [String]) throws {
        var arguments = ArgumentList(arguments, command: "run")
        var options = NightlyRunOptions()
        options.jobs = try arguments.value("--jobs") ?? options.jobs
        options.state = try arguments.value("--state") ?? options.state
        options.accounts = try arguments.values("--account")
        for name in options.accounts {
            if let problem = AccountName.problem(with: name) {
                throw arguments.usage("--account \(name) is not an account name: it \(problem)")
            }
        }
        if let text = try arguments.value("--as-of") {
            guard let date = InventoryDate.parseISO(text) else {
                throw arguments.usage("--as-of must be a date as YYYY-MM-DD, not \"\(text)\"")
            }
            options.asOf = date
        }
        options.push = !arguments.flag("--no-push")
        options.dryRun = arguments.flag("--dry-run")
        options.acceptShrink = arguments.flag("--accept-shrink")
        if let file = try arguments.value("--env-file") {
            options.fileEnvironment = try EnvironmentFile.read(file)
        }
        options.parallel =
            try arguments.number("--parallel", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        let environment = ProcessInfo.processInfo.environment
        if let text = try arguments.value("--shard") {
            guard let shard = Shard(text) else {
                throw arguments.usage("--shard must be I/N with 0 ≤ I < N, not \"\(text)\"")
            }
            options.shard = shard
        } else if let count = try arguments.number("--shard-count", in: 1...100_000)
            ?? environment["STOCKTAKE_SHARDS"].flatMap({ Int($0) })
        {
            guard let text = environment["JOB_COMPLETION_INDEX"], let index = Int(text),
                let shard = Shard(index: index, count: count)
            else {
                throw arguments.usage("a shard count needs JOB_COMPLETION_INDEX set to a number from 0 to \(count - 1)")
            }
            options.shard = shard
        }
        let extra = try arguments.positionals()
        guard extra.isEmpty else { throw arguments.usage("unexpected argument \(extra[0])") }
        var directory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: options.jobs, isDirectory: &directory), directory.boolValue else {
            throw StocktakeError.missingInput(path: options.jobs, what: "jobs folder")
        }

        options.executable = ownExecutable()
        let outcomes = NightlyRun.run(options)
        print(NightlyMail.text(outcomes), terminator: "")
        let status = NightlyRun.exitStatus(outcomes)
        if status != .success { exit(status.rawValue) }
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
