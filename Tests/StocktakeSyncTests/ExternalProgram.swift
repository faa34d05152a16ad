import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Finds and runs the programs the test servers are made of (`apache2`, `openssl`).
enum ExternalProgram {
    /// The first executable among `candidates` (absolute paths) or, failing that, `name` found on `PATH`.
    static func find(_ name: String, candidates: [String] = []) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let searched = candidates + path.split(separator: ":").map { "\($0)/\(name)" }
        return searched.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `program` to completion with its output appended to the file at `log`, and returns its exit status
    /// (128 + the signal number when a signal ended it), or `nil` when it could not be started.
    ///
    /// `posix_spawn`, not Foundation's `Process`: the test runner blocks signals on its threads, and a daemon that
    /// inherited that mask (httpd) would ignore the `SIGTERM` of `apache2 -k stop`. The child gets an empty signal
    /// mask and default handlers. The output goes to a file, not a pipe, which a daemon could hold open.
    static func run(_ program: String, _ arguments: [String], log: String) -> Int32? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argumentVector: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argumentVector { free(argument) } }
        var child = pid_t()
        guard posix_spawn(&child, program, &actions, &attributes, argumentVector, environ) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
