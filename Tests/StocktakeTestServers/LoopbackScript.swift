import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A test server written in Python, running on 127.0.0.1 for as long as this object lives.
///
/// The script prints the port of each listener it opens, one a line, on standard output, and stops when its
/// standard input closes: when this object is released, or when the test process dies, so no server outlives its
/// test. The pipes are close-on-exec, so a server inherits only its own two ends, as its standard input and output.
public final class LoopbackScript {
    /// The ports the script printed, in order.
    public let ports: [Int]
    private let process: pid_t
    private let input: Int32

    /// Why a server could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `python3 script arguments…` and waits until it has printed `listeners` ports.
    public init(script: String, arguments: [String], listeners: Int = 1) throws {
        var toServer: [Int32] = [0, 0]
        var fromServer: [Int32] = [0, 0]
        // Close-on-exec, so no other server started meanwhile inherits these ends: a server whose standard input
        // another process still holds open would never see it close, and releasing it would wait forever.
        guard pipe(&toServer) == 0, pipe(&fromServer) == 0 else { throw Failure(description: "pipe failed") }
        for descriptor in toServer + fromServer { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toServer[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromServer[1], 1)
        posix_spawn_file_actions_addclose(&actions, toServer[1])
        posix_spawn_file_actions_addclose(&actions, fromServer[0])
        let command = ["/usr/bin/env", "python3", script] + arguments
        var pointers = command.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, "/usr/bin/env", &actions, nil, &pointers, environ)
        close(toServer[0])
        close(fromServer[1])
        guard started == 0 else {
            close(toServer[1])
            close(fromServer[0])
            throw Failure(description: "python3 could not be started; install it (Debian package python3)")
        }
        process = pid
        input = toServer[1]
        var lines: [String] = []
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while lines.count < listeners, read(fromServer[0], &byte, 1) == 1 {
            if byte == 0x0A {
                lines.append(String(decoding: line, as: UTF8.self))
                line = []
            } else {
                line.append(byte)
            }
        }
        close(fromServer[0])
        ports = lines.compactMap { Int($0) }
        guard ports.count == listeners else {
            close(input)
            var status: Int32 = 0
            waitpid(process, &status, 0)
            throw Failure(description: "\(script) printed \(lines) instead of \(listeners) port numbers")
        }
    }

    deinit {
        close(input)
        var status: Int32 = 0
        waitpid(process, &status, 0)
    }

    /// The first listener's port.
    public var port: Int { ports[0] }
}
