import Foundation
import StocktakeJob
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `stocktake run` forks each account's process from its account launcher: the process is the run's own child, shows
/// its own command line, gets only its own token, and the run carries on the usual way when the launcher is gone.
@Suite(.serialized)
struct AccountLauncherTests {
    let runner = CommandRunner()

    /// Account `name`, one tag, its central sheet a FIFO nobody writes yet: its process waits in the pull until
    /// `release(_:)`.
    func stalledAccount(_ name: String, auth: String = "") throws {
        try FileManager.default.createDirectory(atPath: runner.path("data/\(name)"), withIntermediateDirectories: true)
        try #require(mkfifo(runner.path("data/\(name)/central.csv"), 0o600) == 0)
        runner.write(
            #"{"central": {"provider": "file", "url": "../../data/\#(name)/central.csv"}\#(auth)}"#,
            to: "Jobs/\(name)/account.json")
    }

    /// Lets the stalled account `name` read its central sheet.
    func release(_ name: String) throws {
        let descriptor = open(runner.path("data/\(name)/central.csv"), O_WRONLY)
        try #require(descriptor >= 0)
        let text = "VT Tag,Serial\n100000,S100000\n"
        #expect(write(descriptor, text, text.utf8.count) == text.utf8.count)
        close(descriptor)
    }

    func fineAccount(_ name: String) {
        runner.write("VT Tag,Serial\n200000,S200000\n", to: "data/\(name)/central.csv")
        runner.write(
            #"{"central": {"provider": "file", "url": "../../data/\#(name)/central.csv"}}"#,
            to: "Jobs/\(name)/account.json")
    }

    /// `stocktake run` started in the runner's folder with `arguments`, its outputs in files, with descriptor 7 open;
    /// through `wrapper` (a program and its arguments, which executes the rest of its command line) when given.
    func start(_ arguments: [String], environment: [String: String] = [:], through wrapper: [String] = []) throws
        -> Process
    {
        let process = Process()
        // Through a shell that leaves descriptor 7 open (not close-on-exec), as a wrapper holding a lock file does:
        // the launcher must not pass it on.
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments =
            ["-c", #"exec 7</dev/null; exec "$0" "$@""#] + wrapper
            + [try #require(CommandRunner.executable), "run", "--as-of", "2026-11-20"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: runner.folder)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        _ = FileManager.default.createFile(atPath: runner.path("out.txt"), contents: nil)
        _ = FileManager.default.createFile(atPath: runner.path("err.txt"), contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: runner.path("out.txt"))
        process.standardError = FileHandle(forWritingAtPath: runner.path("err.txt"))
        try process.run()
        return process
    }

    /// The command line of `pid` as /proc shows it: its raw bytes.
    static func commandLine(_ pid: pid_t) -> [UInt8] {
        Array(FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data())
    }

    /// The arguments in a raw command line.
    static func arguments(_ commandLine: [UInt8]) -> [String] {
        commandLine.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The parent of `pid`.
    static func parent(of pid: pid_t) -> pid_t? {
        guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: stat, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }

    /// The children of `parent` whose second argument is `command`.
    static func children(of parent: pid_t, running command: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { pid in
            Self.parent(of: pid) == parent && arguments(commandLine(pid)).dropFirst().first == command
                && RunIsolationTests.isRunning(pid)
        }
    }

    /// Waits up to 20 seconds for a child of `parent` running `command` for `account` (any account when `nil`).
    static func waitForChild(of parent: pid_t, running command: String, account: String? = nil) -> pid_t? {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let found = children(of: parent, running: command).first { pid in
                account.map { arguments(commandLine(pid)).contains("--account=\($0)") } ?? true
            }
            if let found { return found }
            usleep(20_000)
        }
        return nil
    }

    @Test func eachAccountProcessIsForkedFromTheLauncherAndIsTheRunsOwnChild() throws {
        try stalledAccount("north", auth: #", "auth": {"tokenVariable": "STOCKTAKE_TOKEN_NORTH"}"#)
        let file = runner.write("STOCKTAKE_TOKEN_NORTH=tok-north-1234\n", to: "stocktake.env")
        try #require(chmod(file, 0o600) == 0)
        let run = try start(
            ["--env-file", "stocktake.env"], environment: ["STOCKTAKE_TOKEN_SOUTH": "tok-south-5678"])
        defer { if run.isRunning { kill(run.processIdentifier, SIGKILL) } }

        let account = try #require(Self.waitForChild(of: run.processIdentifier, running: "run-account"))
        let launcher = try #require(Self.children(of: run.processIdentifier, running: "launch-accounts").first)

        // The run's own child (forked as the launcher's sibling; the run adopts nothing), which it waits for and
        // limits in time as a process it started itself.
        #expect(Self.parent(of: account) == run.processIdentifier)
        // Forked: its command line is written over the launcher's, room included; an executed process's command
        // line is exactly its arguments.
        let line = Self.commandLine(account)
        #expect(line.count > AccountLauncher.commandLineRoom)
        let arguments = Self.arguments(line)
        #expect(
            Array(arguments.dropFirst().dropLast())
                == ["run-account", "--jobs=Jobs", "--state=state", "--account=north", "--as-of=2026-11-20"])
        #expect(arguments.last?.hasPrefix("--max-memory-mb=") == true)
        // The launcher holds no token: neither the account's from the environment file nor another from the run's
        // own environment.
        let environment = String(
            decoding: FileManager.default.contents(atPath: "/proc/\(launcher)/environ") ?? Data(), as: UTF8.self)
        #expect(!environment.isEmpty)
        #expect(!environment.contains("tok-north") && !environment.contains("tok-south"))
        #expect(!environment.contains("STOCKTAKE_TOKEN"))
        // Nor any descriptor of the run's beyond its socket, /dev/null and standard error: the processes it forks
        // start with only these. The run itself has descriptor 7.
        #expect(FileManager.default.fileExists(atPath: "/proc/\(run.processIdentifier)/fd/7"))
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(launcher)/fd").sorted()
        #expect(descriptors == ["0", "1", "2"])
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(launcher)/fd/0").hasPrefix("socket:"))

        try release("north")
        run.waitUntilExit()
        #expect(run.terminationStatus == 0, "\(runner.read("err.txt") ?? "")")
        #expect(runner.read("out.txt")?.hasPrefix("1 of 1 account reconciled\n") == true)
        #expect(runner.read("state/north/latest/cleaned.csv")?.contains("100000") == true)
        // The launcher ended with the run.
        #expect(!RunIsolationTests.isRunning(launcher))
    }

    /// Where a sandbox refuses `clone` with CLONE_PARENT (a seccomp filter, as a container's may have), the launcher
    /// fails the first request and every account is started by executing `stocktake`, as the log says once.
    @Test(.enabled(if: Self.canFilterSystemCalls))
    func aSandboxRefusingCloneParentStartsEveryAccountTheUsualWay() throws {
        fineAccount("a-first")
        fineAccount("b-second")
        runner.write(Self.refusingCloneParent, to: "refuse-clone-parent.py")
        let run = try start(["--parallel", "1"], through: ["python3", runner.path("refuse-clone-parent.py")])
        defer { if run.isRunning { kill(run.processIdentifier, SIGKILL) } }
        run.waitUntilExit()

        let standardError = runner.read("err.txt") ?? ""
        #expect(run.terminationStatus == 0, "\(standardError)")
        #expect(runner.read("out.txt")?.hasPrefix("2 of 2 accounts reconciled\n") == true)
        let executable = URL(fileURLWithPath: try #require(CommandRunner.executable)).resolvingSymlinksInPath().path
        let lines = standardError.split(separator: "\n").filter { $0.contains("the account launcher") }
        #expect(lines.count == 1, "\(standardError)")
        #expect(
            lines.first?.hasSuffix(
                " [a-first] the account launcher could not start a process; starting \(executable) instead") == true,
            "\(standardError)")
        #expect(runner.read("state/a-first/latest/cleaned.csv")?.contains("200000") == true)
        #expect(runner.read("state/b-second/latest/cleaned.csv")?.contains("200000") == true)
    }

    /// Whether the filter below can be installed here: it is written for x86-64 Linux and installed by `python3`.
    static var canFilterSystemCalls: Bool {
        #if arch(x86_64) && os(Linux)
            return FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        #else
            return false
        #endif
    }

    /// Executes its arguments under a seccomp filter that fails `clone` with CLONE_PARENT (EPERM) and allows every
    /// other call: a thread or `posix_spawn` never asks for CLONE_PARENT, only the launcher's fork does.
    static let refusingCloneParent = #"""
        import ctypes, os, struct, sys
        libc = ctypes.CDLL(None, use_errno=True)
        def statement(code, k): return struct.pack("HBBI", code, 0, 0, k)
        def jump(code, k, true, false): return struct.pack("HBBI", code, true, false, k)
        LOAD, EQUAL, ANY_BIT, RETURN = 0x20, 0x15, 0x45, 0x06
        program = b"".join([
            statement(LOAD, 4), jump(EQUAL, 0xC000003E, 0, 5),  # seccomp_data.arch: x86-64, else allow
            statement(LOAD, 0), jump(EQUAL, 56, 0, 3),  # seccomp_data.nr: clone, else allow
            statement(LOAD, 16), jump(ANY_BIT, 0x8000, 0, 1),  # the low word of its flags: CLONE_PARENT
            statement(RETURN, 0x00050000 | 1),  # SECCOMP_RET_ERRNO | EPERM
            statement(RETURN, 0x7FFF0000),  # SECCOMP_RET_ALLOW
        ])
        code = ctypes.create_string_buffer(program)
        class Program(ctypes.Structure): _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
        filter = Program(len(program) // 8, ctypes.cast(code, ctypes.c_void_p))
        assert libc.prctl(38, 1, 0, 0, 0) == 0  # PR_SET_NO_NEW_PRIVS
        assert libc.prctl(22, 2, ctypes.byref(filter), 0, 0) == 0  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
        os.execv(sys.argv[1], sys.argv[1:])
        """#

    /// Accounts one after another from the same launcher, each on a server of its own that records the token it
    /// was sent: each server sees only its account's token, the second's too, which was forked after the first.
    @Test func eachForkedAccountSendsOnlyItsOwnToken() throws {
        var servers: [String: HostileServer] = [:]
        for name in ["north", "south"] {
            let server = try HostileServer(
                mode: "honest", csv: "VT Tag,Serial\n100001,s1\n", folder: runner.path("server-\(name)"))
            servers[name] = server
            runner.write(
                """
                {"central": {"provider": "https", "url": "\(server.url)"},
                 "auth": {"tokenVariable": "STOCKTAKE_TOKEN_\(name.uppercased())"}}
                """, to: "Jobs/\(name)/account.json")
        }
        let file = runner.write(
            "STOCKTAKE_TOKEN_NORTH=tok-north-1234\nSTOCKTAKE_TOKEN_SOUTH=tok-south-5678\n", to: "stocktake.env")
        try #require(chmod(file, 0o600) == 0)

        let result = try runner.run([
            "run", "--as-of", "2026-11-20", "--env-file", "stocktake.env", "--parallel", "1", "--no-push",
        ])

        #expect(result.status == 0, "\(result.standardError)")
        let north = try #require(servers["north"]).requests.map(\.authorization)
        let south = try #require(servers["south"]).requests.map(\.authorization)
        #expect(!north.isEmpty && north.allSatisfy { $0 == "Bearer tok-north-1234" }, "\(north)")
        #expect(!south.isEmpty && south.allSatisfy { $0 == "Bearer tok-south-5678" }, "\(south)")
    }

    /// The launcher killed while the first account runs: the first still finishes, and the second and third are
    /// started by executing `stocktake`, as the log says once.
    @Test func withTheLauncherGoneTheNextAccountStartsTheUsualWay() throws {
        try stalledAccount("a-stalled")
        fineAccount("b-fine")
        fineAccount("c-fine")
        let run = try start(["--parallel", "1"])
        defer { if run.isRunning { kill(run.processIdentifier, SIGKILL) } }
        let first = try #require(
            Self.waitForChild(of: run.processIdentifier, running: "run-account", account: "a-stalled"))
        // The program the run executes: its own, as /proc names it.
        let ownPath = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(first)/exe")
        let launcher = try #require(Self.children(of: run.processIdentifier, running: "launch-accounts").first)

        kill(launcher, SIGKILL)
        try release("a-stalled")
        run.waitUntilExit()

        let standardError = runner.read("err.txt") ?? ""
        #expect(run.terminationStatus == 0, "\(standardError)")
        #expect(runner.read("out.txt")?.hasPrefix("3 of 3 accounts reconciled\n") == true)
        let fallback = try #require(
            standardError.split(separator: "\n").first { $0.contains(" [b-fine] the account launcher") })
        #expect(
            fallback.hasSuffix(" [b-fine] the account launcher could not start a process; starting \(ownPath) instead"))
        // Said once, for the account it happened to; the next one simply starts the usual way.
        #expect(!standardError.contains("[a-stalled] the account launcher"))
        #expect(!standardError.contains("[c-fine] the account launcher"))
        #expect(runner.read("state/c-fine/latest/cleaned.csv")?.contains("200000") == true)
        #expect(runner.read("state/b-fine/latest/cleaned.csv")?.contains("200000") == true)
    }
}
