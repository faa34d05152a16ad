import CProcess
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `stocktake run`'s end of the account launcher (see ``AccountLauncher``): starts it once, asks it for each
/// account's process, and ends it with the run.
///
/// Whenever the launcher cannot give a process (it was killed, or a fork failed), the connection says so and is
/// not used again: the account, and every later one, starts by executing `stocktake` as before.
final class LauncherConnection: @unchecked Sendable {
    /// How long a process the launcher forks may take to report itself.
    static let reportLimit: Double = 10

    private let socket: LaunchChannel
    private let process: pid_t
    private let lock = NSLock()
    private var isBroken = false

    private init(socket: LaunchChannel, process: pid_t) {
        self.socket = socket
        self.process = process
    }

    /// Starts `executable launch-accounts` with `environment` (which must hold no token); `nil` when it cannot be
    /// started.
    static func start(executable: String, environment: [String: String]) -> LauncherConnection? {
        // The launcher, and so every process forked from it, gets only the descriptors given here.
        AccountProcess.spawnLock.lock()
        defer { AccountProcess.spawnLock.unlock() }
        AccountProcess.keepDescriptorsFromChildren()
        guard let (mine, theirs) = LaunchChannel.pair() else { return nil }
        defer { theirs.close() }
        let nothing = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard nothing >= 0 else {
            mine.close()
            return nil
        }
        defer { close(nothing) }
        guard
            let process = try? AccountProcess.start(
                [executable, "launch-accounts", String(repeating: " ", count: AccountLauncher.commandLineRoom)],
                environment: environment, input: theirs.socket, output: nothing)
        else {
            mine.close()
            return nil
        }
        return LauncherConnection(socket: mine, process: process)
    }

    /// Whether the launcher has failed a request, after which it is not asked again.
    var hasFailed: Bool {
        lock.withLock { isBroken }
    }

    /// A new process running `arguments` (the program first: the fork already is the program) with exactly
    /// `environment`, with `input` and `output` as its standard input and output; its id, or `nil` when the
    /// launcher could not give one.
    func launch(_ arguments: [String], environment: [String: String], input: Int32, output: Int32) -> pid_t? {
        lock.lock()
        defer { lock.unlock() }
        guard !isBroken else { return nil }
        guard let process = ask(arguments, environment: environment, input: input, output: output) else {
            isBroken = true
            return nil
        }
        return process
    }

    private func ask(_ arguments: [String], environment: [String: String], input: Int32, output: Int32) -> pid_t? {
        guard let (mine, theirs) = LaunchChannel.pair() else { return nil }
        defer { mine.close() }
        var byte: UInt8 = 1
        let sent = withUnsafePointer(to: theirs.socket) { descriptor in
            stocktake_send_descriptors(socket.socket, &byte, 1, descriptor, 1)
        }
        theirs.close()
        let request = LaunchRequest(
            arguments: arguments,
            environment: environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
        guard sent == 1, mine.send(request, input: input, output: output) else { return nil }
        return mine.receiveProcess(waitingUpTo: Self.reportLimit)
    }

    /// Ends the launcher: closing its socket is its signal to stop; then it is waited for.
    func finish() {
        socket.close()
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0 && errno == EINTR {}
    }
}
