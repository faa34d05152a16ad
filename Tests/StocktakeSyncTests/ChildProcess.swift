import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `sleep` process started by a test, standing for another writer: running, or killed to leave a dead process id.
final class ChildProcess {
    private let process = Process()

    /// The child's process id.
    var pid: pid_t { process.processIdentifier }

    /// Starts a child that sleeps for a minute unless killed.
    init() throws {
        process.executableURL = URL(fileURLWithPath: ExternalProgram.find("sleep", candidates: ["/bin/sleep"]) ?? "")
        process.arguments = ["60"]
        try process.run()
    }

    /// Kills the child with `SIGKILL`, as a killed push was, and waits until it is gone.
    func kill() {
        guard process.isRunning else { return }
        _ = Glibc.kill(pid, SIGKILL)
        process.waitUntilExit()
    }

    /// The id of a process that was started and killed, so it is no longer running.
    static func killed() throws -> pid_t {
        let child = try ChildProcess()
        child.kill()
        return child.pid
    }
}
