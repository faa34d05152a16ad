import Foundation
import StocktakeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One account's night in a child process of `stocktake`, with its own memory and time limits and only its own
/// token: a company whose file exhausts memory, or whose server stalls, fails its own account and no other.
///
/// The child is `stocktake run-account …`. It writes its ``AccountOutcome`` as one JSON line on its standard output,
/// a pipe to this process, after a line that says it only waits for the disk (``AccountChild/computedLine``); its log
/// lines go straight to the shared standard error. Its standard input is a pipe this
/// process never writes to: when this process ends, however it ends, the child reads end-of-file and stops.
///
/// The child is forked from the run's account launcher when there is one (``LauncherConnection``), else started by
/// executing the program; either way it is this process's child, waited for and limited the same way.
struct AccountProcess {
    /// How long a child stopped for its time limit gets between SIGTERM and SIGKILL.
    static let gracePeriod: TimeInterval = 5
    /// The most of a child's standard output kept: the result line is far shorter.
    static let outputLimit = 1 << 20

    /// The account's folder name under `Jobs/`.
    var account: String
    /// The program and its arguments.
    var arguments: [String]
    /// The environment, exactly.
    var environment: [String: String]
    /// The memory limit the child runs under, in MB.
    var memoryLimitMB: Int
    /// The time limit, in minutes.
    var maxMinutes: Double
    /// The launcher that forks the child, when the run has one; without it (or when it fails) the child is started by
    /// executing the program.
    var launcher: LauncherConnection?
    /// Whether the run logs (`--quiet` not given).
    var logs = true
    /// Told once, when the child's first line arrives: it has finished computing and only waits for the disk
    /// (``AccountChild/computedLine``), or it has its outcome.
    var didFinishComputing: () -> Void = {}

    /// The child for `account` of `config`, as `options` and its `executable` ask.
    init(
        account: String, config: AccountConfig, options: NightlyRunOptions, executable: String,
        environment: [String: String]
    ) {
        self.account = account
        self.environment = Self.processEnvironment(environment)
        memoryLimitMB = min(config.maxMemoryMB, Self.inheritedMemoryLimitMB() ?? config.maxMemoryMB)
        maxMinutes = config.maxMinutes
        // Values are attached with `=`: an account folder named `-h`, or a jobs folder starting with `--`, stays a
        // value and is never read as an option of its own.
        var arguments = [
            executable, "run-account", "--jobs=" + options.jobs, "--state=" + options.state, "--account=" + account,
            "--as-of=" + options.asOf.description, "--max-memory-mb=" + String(memoryLimitMB),
        ]
        if !options.push { arguments.append("--no-push") }
        if options.dryRun { arguments.append("--dry-run") }
        if options.acceptShrink { arguments.append("--accept-shrink") }
        if !options.logs { arguments.append("--quiet") }
        if !options.simulatedFailures.isEmpty {
            arguments.append("--simulate-failure=" + options.simulatedFailures.map(\.rawValue).joined(separator: ","))
        }
        self.arguments = arguments
        logs = options.logs
    }

    /// `environment` with the settings every account's process (and the launcher that forks them) starts with.
    static func processEnvironment(_ environment: [String: String]) -> [String: String] {
        var environment = environment
        // glibc gives each thread that allocates at the same time its own arena of 64 MB of address space; two
        // arenas keep the memory limit a measure of the memory the account really uses, not of how many threads
        // it ran. An admin's own setting stays. glibc reads it when the program starts, so the launcher needs it too.
        environment["MALLOC_ARENA_MAX"] = environment["MALLOC_ARENA_MAX"] ?? "2"
        // A crashing child's backtrace goes to the log; by default it would also dump registers and the memory
        // they point at, which may hold the account's token.
        environment["SWIFT_BACKTRACE"] = environment["SWIFT_BACKTRACE"] ?? "registers=none,images=none"
        return environment
    }

    /// The address-space limit this process runs under (and a child inherits), in whole MB; `nil` when unlimited.
    static func inheritedMemoryLimitMB() -> Int? {
        var limit = rlimit()
        // rlim_t.max is RLIM_INFINITY, which does not import.
        guard getrlimit(memoryResource, &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(limit.rlim_cur >> 20)
    }

    #if canImport(Glibc)
        static let memoryResource = __rlimit_resource_t(RLIMIT_AS.rawValue)
    #else
        static let memoryResource = RLIMIT_AS
    #endif

    /// What became of the child: its own outcome, or why it gave none.
    func runChild() -> Result<AccountOutcome, AccountProcessFailure> {
        let child: Child
        do {
            child = try spawn()
        } catch {
            return .failure(error)
        }
        defer { close(child.output) }
        let deadline = Date().addingTimeInterval(maxMinutes * 60)
        var output: [UInt8] = []
        var ended: (status: Int32, usage: rusage)?
        var timedOut = false
        var hasComputed = false
        while ended == nil {
            ended = Self.reap(child.process, blocking: false)
            readAvailable(child.output, into: &output, waitingUpTo: ended == nil ? 0.1 : 0)
            if !hasComputed, output.contains(UInt8(ascii: "\n")) {
                hasComputed = true
                didFinishComputing()
            }
            if ended == nil, Date() >= deadline {
                timedOut = true
                ended = stop(child.process)
            }
        }
        // Whatever the child wrote just before it ended is still in the pipe.
        while readAvailable(child.output, into: &output, waitingUpTo: 0) {}
        close(child.lifeline)
        return classify(status: ended!.status, usage: ended!.usage, timedOut: timedOut, output: output)
    }

    /// What the wait status, the peak memory and the parent's own action say about how the child ended.
    func classify(status: Int32, usage: rusage, timedOut: Bool, output: [UInt8]) -> Result<
        AccountOutcome, AccountProcessFailure
    > {
        let signal = status & 0x7F
        let outcome = Self.outcome(of: account, in: output)
        if timedOut {
            // A child that finished just as its time ran out has its outcome all the same.
            if signal == 0, let outcome { return .success(outcome) }
            return .failure(.timeLimit(minutes: maxMinutes))
        }
        if signal != 0 {
            // ru_maxrss is in kilobytes. A child stopped by an allocation that failed against RLIMIT_AS has touched
            // most of it; a crash far below the limit is not about memory.
            if Int(usage.ru_maxrss) >= (memoryLimitMB << 10) / 2 {
                return .failure(.memoryLimit(megabytes: memoryLimitMB))
            }
            return .failure(.crashed(signal: signal))
        }
        if let outcome { return .success(outcome) }
        return .failure(.noResult(status: (status >> 8) & 0xFF))
    }

    /// The outcome in the last line of `output`, when that is the result line of `account`.
    static func outcome(of account: String, in output: [UInt8]) -> AccountOutcome? {
        guard let last = output.split(separator: UInt8(ascii: "\n")).last,
            let outcome = try? JSONDecoder().decode(AccountOutcome.self, from: Data(last)), outcome.account == account
        else { return nil }
        return outcome
    }

    // MARK: - Processes

    /// A started child: its process id, the read end of its standard output, and the write end of its standard
    /// input (closed when the parent is done with it).
    struct Child {
        var process: pid_t
        var output: Int32
        var lifeline: Int32
    }

    /// Pipes are made and the child started under one lock, so no other account's child inherits this one's pipe
    /// ends between `pipe` and `FD_CLOEXEC`.
    static let spawnLock = NSLock()

    private func spawn() throws(AccountProcessFailure) -> Child {
        let program = arguments[0]
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        Self.keepDescriptorsFromChildren()
        // Once the launcher has failed, the log has said so (for the account it failed) and every later account
        // starts the usual way without a word.
        if let launcher, !launcher.hasFailed {
            let pipes = try makePipes()
            if let process = launcher.launch(
                arguments, environment: environment, input: pipes.input[0], output: pipes.output[1])
            {
                close(pipes.output[1])
                close(pipes.input[0])
                return Child(process: process, output: pipes.output[0], lifeline: pipes.input[1])
            }
            // The launcher failed this account: a process it forked but could not report sees its pipes close and
            // ends; this account starts the usual way, on pipes of its own.
            for descriptor in pipes.output + pipes.input { close(descriptor) }
            Log(account: account, isEnabled: logs)(
                "the account launcher could not start a process; starting \(program) instead")
        }
        let pipes = try makePipes()
        defer {
            close(pipes.output[1])
            close(pipes.input[0])
        }
        do {
            let process = try Self.start(
                arguments, environment: environment, input: pipes.input[0], output: pipes.output[1])
            return Child(process: process, output: pipes.output[0], lifeline: pipes.input[1])
        } catch {
            close(pipes.output[0])
            close(pipes.input[1])
            throw error
        }
    }

    /// The child's standard output (read end non-blocking) and standard input, every end close-on-exec.
    private func makePipes() throws(AccountProcessFailure) -> (output: [Int32], input: [Int32]) {
        var output: [Int32] = [-1, -1]
        var input: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { throw .cannotStart(program: arguments[0], code: errno) }
        guard pipe(&input) == 0 else {
            let code = errno
            close(output[0])
            close(output[1])
            throw .cannotStart(program: arguments[0], code: code)
        }
        for descriptor in output + input { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(output[0], F_SETFL, O_NONBLOCK)
        return (output, input)
    }

    /// Starts `arguments` (the program first) with exactly `environment`, `input` and `output` as its standard
    /// input and output, every signal at its default and none blocked; returns the process id.
    static func start(_ arguments: [String], environment: [String: String], input: Int32, output: Int32)
        throws(AccountProcessFailure) -> pid_t
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies the child keeps.
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argumentStrings: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let environmentStrings: [UnsafeMutablePointer<CChar>?] =
            environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for string in argumentStrings + environmentStrings { free(string) }
        }
        var process = pid_t()
        let started = posix_spawn(&process, arguments[0], &actions, &attributes, argumentStrings, environmentStrings)
        guard started == 0 else { throw .cannotStart(program: arguments[0], code: started) }
        return process
    }

    /// Marks every open descriptor above standard error close-on-exec, so a child gets only the three it needs.
    ///
    /// Whatever started `stocktake run` may have left descriptors open in it: the nightly wrapper's lock, a test
    /// runner's pipes. A child that kept them would keep that lock, or keep its starter waiting, after the run ended.
    static func keepDescriptorsFromChildren() {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in descriptors.compactMap({ Int32($0) }) where descriptor > 2 {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0, flags & FD_CLOEXEC == 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// Reads what the child has written so far, waiting up to `seconds` for something to arrive; returns whether
    /// anything was read.
    @discardableResult
    private func readAvailable(_ descriptor: Int32, into output: inout [UInt8], waitingUpTo seconds: TimeInterval)
        -> Bool
    {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else {
            // End of file: nothing more will come, and the child is ending. A short pause lets it exit before the
            // next reap: a pause as long as the poll's added a tenth of a second to every account of the night, and
            // one of 2 ms still left a core idle for about a millisecond per account, since the next account starts
            // only when this one is reaped.
            if count == 0, seconds > 0 { usleep(UInt32(min(seconds, 0.000_2) * 1_000_000)) }
            return false
        }
        if output.count < Self.outputLimit { output += buffer.prefix(count) }
        return true
    }

    /// The child's wait status and resource usage once it has ended; `nil` while it runs (when not `blocking`).
    static func reap(_ process: pid_t, blocking: Bool) -> (status: Int32, usage: rusage)? {
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let result = wait4(process, &status, blocking ? 0 : WNOHANG, &usage)
            if result == process { return (status, usage) }
            if result == 0 { return nil }
            // EINTR: try again. ECHILD cannot happen for our own child; report it as ended by SIGKILL rather than
            // spin.
            if errno != EINTR { return (SIGKILL, usage) }
        }
    }

    /// Stops a child that ran out of time: SIGTERM, a short grace, then SIGKILL.
    private func stop(_ process: pid_t) -> (status: Int32, usage: rusage) {
        kill(process, SIGTERM)
        let grace = Date().addingTimeInterval(Self.gracePeriod)
        while Date() < grace {
            if let ended = Self.reap(process, blocking: false) { return ended }
            usleep(20_000)
        }
        kill(process, SIGKILL)
        return Self.reap(process, blocking: true)!
    }
}

extension AccountProcess {
    /// The outcome of `account` run in a child process of `executable`, whose environment is made from `base` (this
    /// process's, read once for the whole run: reading it makes a dictionary of every variable).
    ///
    /// The account's configuration is loaded here first: it says the limits and the token variable. A configuration
    /// that does not load is reported exactly as an in-process run reports it (`NightlyRun.runAccount` stops at that
    /// point), and no process is started for it. `didFinishComputing` is told when the child says it only waits for
    /// the disk, or has its outcome.
    static func outcome(
        of account: String, options: NightlyRunOptions, executable: String, environment: ChildEnvironment,
        base: [String: String], launcher: LauncherConnection? = nil, didFinishComputing: @escaping () -> Void = {}
    ) -> AccountOutcome {
        let folder = (options.jobs as NSString).appendingPathComponent(account)
        guard let config = try? AccountConfig.load(folder: folder) else {
            return NightlyRun.runAccount(account, options: options)
        }
        var process = AccountProcess(
            account: account, config: config, options: options, executable: executable,
            environment: environment.environment(
                base: base, own: config.connection.tokenVariable))
        process.launcher = launcher
        process.didFinishComputing = didFinishComputing
        switch process.runChild() {
        case .success(let outcome):
            return outcome
        case .failure(let failure):
            Log(account: account, isEnabled: options.logs)("failed: \(failure). \(failure.advice)")
            return AccountOutcome(account: account, status: .temporaryFailure, push: "failed: \(failure)")
        }
    }
}
