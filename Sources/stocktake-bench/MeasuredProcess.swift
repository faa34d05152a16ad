import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program as a child process and measures it with `wait4`: wall time, user and system CPU, peak resident
/// memory and page faults, including every descendant the child waited for (the account processes of
/// `stocktake run`).
///
/// Foundation's `Process` reaps its children itself, so the resource usage of the child would be lost; this
/// spawns with `posix_spawn` and reaps the child here.
struct MeasuredProcess {
    /// The program's path.
    var program: String
    /// The arguments after the program's name.
    var arguments: [String]
    /// Variables added to (or replacing those of) this process's environment.
    var extraEnvironment: [String: String] = [:]
    /// Where the child's standard output goes (a file, created or truncated).
    var standardOutput: String
    /// Where the child's standard error goes (a file, created or truncated).
    var standardError: String

    /// Starts the program, waits for it and returns how it ended and what it cost.
    func run() throws(BenchError) -> (ProcessOutcome, ProcessMeasurement) {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in extraEnvironment { environment[name] = value }
        let argumentStrings = [program] + arguments
        let environmentStrings = environment.map { "\($0.key)=\($0.value)" }.sorted()
        var argv: [UnsafeMutablePointer<CChar>?] = argumentStrings.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environmentStrings.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var pid = pid_t()
        var start = timespec()
        var spawned: Int32 = 0
        // A program written a moment ago may still be open for writing in a child another thread forked meanwhile
        // (it inherited the descriptor): exec then fails with ETXTBSY until that child has exec'd or ended. The
        // clock starts again with each attempt.
        for attempt in 1...Self.textFileBusyAttempts {
            clock_gettime(CLOCK_MONOTONIC, &start)
            spawned = posix_spawn(&pid, program, &actions, nil, &argv, &envp)
            guard spawned == ETXTBSY, attempt < Self.textFileBusyAttempts else { break }
            usleep(20_000)
        }
        guard spawned == 0 else {
            throw .cannotStart(program: program, reason: String(cString: strerror(spawned)))
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else {
                throw .cannotStart(
                    program: program, reason: "waiting for it failed: " + String(cString: strerror(errno)))
            }
        }
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        let wall = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        let measurement = ProcessMeasurement(
            wallSeconds: wall, userSeconds: Self.seconds(usage.ru_utime), systemSeconds: Self.seconds(usage.ru_stime),
            // Linux reports ru_maxrss in kilobytes.
            peakResidentBytes: Int(usage.ru_maxrss) * 1024, pageFaults: Int(usage.ru_minflt + usage.ru_majflt))
        let signal = status & 0x7f
        let outcome: ProcessOutcome = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
        return (outcome, measurement)
    }

    /// How many times a start that fails with ETXTBSY is tried, 20 ms apart.
    static let textFileBusyAttempts = 50

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1e6
    }
}
