import CProcess
import Foundation
import StocktakeCore

#if canImport(Glibc)
    import Glibc
#endif

/// The account launcher: a process of `stocktake` that only forks, so that each account's process starts already
/// loaded instead of executing `stocktake` anew.
///
/// Executing `stocktake` costs about 10 ms of CPU before the first line of an account's work: the dynamic loader
/// binds libcurl and the 35 libraries it needs, and their initializers run. With a thousand small accounts a night
/// that is a large share of the run. The launcher pays it once; each account's process is a fork of it.
///
/// The launcher never starts a thread (it checks before every fork), never holds an account's data or token, and
/// never reads a request: `stocktake run` sends it only a socket, and the new process reads its own command line
/// and environment from that socket. Each account's process is forked as the launcher's sibling (CLONE_PARENT), so
/// it is `stocktake run`'s own child from its first instruction: the run waits for it, limits its time and reads
/// its exit status exactly as for a process it started itself. (A fork through a go-between that ended at once, so
/// that the run adopted its orphan, cost a second fork and exit of the launcher's address space: about 1.4 ms of CPU
/// an account of 100 assets.)
public enum AccountLauncher {
    /// Serves launch requests on standard input (a Unix socket to `stocktake run`) until it closes. Each message is
    /// one byte carrying one socket; the process forked for it reads its request from that socket, becomes the
    /// process `request.arguments` describe and ends with the status `command` returns for them.
    ///
    /// Before the first request it runs a small made-up account (`LauncherWarmUp`), so that the processes it forks
    /// start with the runtime's first look-ups made.
    public static func serve(_ command: @escaping ([String]) -> Int32) -> Never {
        let parent = getppid()
        LauncherWarmUp.run()
        while true {
            var byte: UInt8 = 0
            var descriptors: [Int32] = [-1]
            var received: Int32 = 0
            let count = stocktake_receive_descriptors(0, &byte, 1, &descriptors, 1, &received)
            // End of file, or a socket that broke: `stocktake run` has ended.
            guard count > 0 else { _exit(0) }
            guard received == 1 else { continue }
            let channel = LaunchChannel(socket: descriptors[0])
            // fork() copies only the calling thread: with another thread running, the copy could inherit a lock
            // that thread held. The launcher never starts one; should that ever change, it stops here instead.
            guard threadCount() == 1 else {
                channel.close()
                _exit(ExitStatus.temporaryFailure.rawValue)
            }
            // A process that cannot be made is a request the launcher fails: the run then starts that account, and
            // every later one, by executing `stocktake`.
            if stocktake_fork_as_sibling() == 0 { become(channel: channel, parent: parent, command) }
            channel.close()
        }
    }

    /// In the forked process: checks that it is `parent`'s child (not when `parent` has ended since), takes the
    /// request from `channel`, and runs it.
    private static func become(channel: LaunchChannel, parent: pid_t, _ command: @escaping ([String]) -> Int32)
        -> Never
    {
        guard getppid() == parent else { _exit(ExitStatus.temporaryFailure.rawValue) }
        // The launcher's socket (standard input) and /dev/null (standard output) give way to the account's pipes.
        guard let (request, input, output) = channel.receiveRequest(),
            dup2(input, 0) == 0, dup2(output, 1) == 1
        else { _exit(ExitStatus.temporaryFailure.rawValue) }
        if input > 1 { close(input) }
        if output > 1 { close(output) }
        clearenv()
        for variable in request.environment { putenv(strdup(variable)) }
        // Only now does `stocktake run` learn the process id: a process that could not take its request never
        // becomes an account's process, and `stocktake run` starts one the usual way instead.
        guard channel.send(process: getpid()) else { _exit(ExitStatus.temporaryFailure.rawValue) }
        channel.close()
        showCommandLine(request.arguments)
        let arguments = Array(request.arguments.dropFirst())
        runOnNewThread {
            let status = command(arguments)
            // The outcome is written; what `exit` would add is the libraries' own clean-up of memory this process is
            // about to give back whole (about 0.7 ms an account, before `stocktake run` can reap it and start the
            // next). Only what the C library's streams still buffer needs writing.
            fflush(nil)
            _exit(status)
        }
    }

    /// The room the launcher's command line keeps for the command lines of the processes it forks: a process shows
    /// its own command line (`ps`, /proc/PID/cmdline) by writing over the launcher's, which it cannot lengthen.
    public static let commandLineRoom = 4096

    /// Writes `arguments` (the program first) over this process's command line, so that `ps` shows the account's
    /// process as `stocktake run-account --account=…`, not as the launcher it was forked from. Arguments beyond the
    /// room are left out.
    static func showCommandLine(_ arguments: [String]) {
        let count = Int(CommandLine.argc)
        guard count > 0, let first = CommandLine.unsafeArgv[0], let last = CommandLine.unsafeArgv[count - 1] else {
            return
        }
        let start = UnsafeMutableRawPointer(first)
        let room = UnsafeMutableRawPointer(last) + strlen(last) + 1 - start
        var bytes: [UInt8] = []
        for argument in arguments {
            let argumentBytes = Array(argument.utf8) + [0]
            guard bytes.count + argumentBytes.count <= room else { break }
            bytes += argumentBytes
        }
        memset(start, 0, room)
        bytes.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }

    /// Runs `body` on a thread of its own and waits for it; `body` ends the process.
    ///
    /// The forked thread is a copy of the launcher's: the Swift runtime keeps each thread's id in thread-local
    /// memory for its locks, and in the copy that id is still the launcher's. A lock such a thread holds while
    /// another waits for it can never be handed over (seen: two threads spinning forever on a `static let`). A new
    /// thread learns its own id, and so do the threads it starts; the copied thread only waits.
    private static func runOnNewThread(_ body: @escaping () -> Never) -> Never {
        final class Work {
            let body: () -> Never
            init(_ body: @escaping () -> Never) { self.body = body }
        }
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        guard
            pthread_create(
                &thread, nil,
                { work in Unmanaged<Work>.fromOpaque(work!).takeRetainedValue().body() }, work) == 0
        else { _exit(ExitStatus.temporaryFailure.rawValue) }
        pthread_join(thread, nil)
        _exit(ExitStatus.temporaryFailure.rawValue)
    }

    /// The threads of this process.
    static func threadCount() -> Int {
        guard let folder = opendir("/proc/self/task") else { return 0 }
        defer { closedir(folder) }
        var count = 0
        while let entry = readdir(folder) {
            if entry.pointee.d_name.0 != UInt8(ascii: ".") { count += 1 }
        }
        return count
    }
}
