import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Checks the files of the repository's `cron/` folder: the crontab with `crontab -n`, the wrapper script by running
/// it against a fake `stocktake`, the systemd units with `systemd-analyze verify`, and the Kubernetes CronJob by its
/// lines.
@Suite struct CronFilesTests {
    static let requireServers = ProcessInfo.processInfo.environment["STOCKTAKE_REQUIRE_SERVERS"] == "1"
    static let crontabProgram = ProgramRun.find("crontab")
    static let systemdAnalyzeProgram = ProgramRun.find("systemd-analyze")

    // MARK: crontab

    @Test(
        .enabled(
            if: crontabProgram != nil || requireServers,
            "crontab (Debian package cron) is not installed; `make test-deps` installs it"))
    func crontabPassesTheCrontabCheck() throws {
        let crontab = try #require(Self.crontabProgram, "crontab (Debian package cron) is not installed")
        let folder = try TemporaryFolder()
        defer { folder.remove() }

        let good = try ProgramRun.run(crontab, ["-n", CronFolder.path("crontab")], in: folder)
        #expect(good.status == 0, "crontab -n: \(good.output)\(good.errors)")

        let broken = folder.file("broken-crontab")
        let text = try CronFolder.text("crontab")
        try text.replacingOccurrences(of: "15 2 * * * ", with: "15 2 * * ").write(
            toFile: broken, atomically: true, encoding: .utf8)
        let refused = try ProgramRun.run(crontab, ["-n", broken], in: folder)
        #expect(refused.status != 0)
    }

    @Test func crontabRunsTheWrapperNightlyAndMailsTheSummary() throws {
        let settings = try CronFolder.text("crontab").split(separator: "\n").map(String.init).filter {
            !$0.hasPrefix("#") && !$0.isEmpty
        }
        #expect(
            settings == [
                "MAILTO=inventory-admins@example.org", "SHELL=/bin/sh", "PATH=/usr/local/bin:/usr/bin:/bin",
                "15 2 * * * /usr/local/bin/stocktake-nightly",
            ])
    }

    // MARK: wrapper

    @Test func wrapperIsAnExecutablePOSIXShellScript() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let check = try ProgramRun.run("/bin/sh", ["-n", CronFolder.path("stocktake-nightly")], in: folder)
        #expect(check.status == 0, "sh -n: \(check.errors)")
        #expect(access(CronFolder.path("stocktake-nightly"), X_OK) == 0)
        #expect(try CronFolder.text("stocktake-nightly").hasPrefix("#!/bin/sh\n"))
    }

    @Test(arguments: [
        (Int32(0), ""),
        (75, "stocktake-nightly: some accounts failed or a push is pending (status 75); the details are in LOG.\n"),
        (78, "stocktake-nightly: configuration errors (status 78); run 'stocktake check' and see LOG.\n"),
        (64, "stocktake-nightly: stocktake refused its arguments (status 64); see LOG.\n"),
        (3, "stocktake-nightly: stocktake run ended with status 3; the details are in LOG.\n"),
    ])
    func wrapperPassesTheExitStatusThroughAndLogsEverything(status: Int32, message: String) throws {
        let fixture = try WrapperFixture(stocktakeStatus: status)
        defer { fixture.folder.remove() }
        try fixture.writeEnvironmentFile(fixture.basicSettings)

        let run = try fixture.runWrapper()

        #expect(run.status == status)
        #expect(run.output == WrapperFixture.summaryLine + "\n")
        #expect(run.errors == message.replacingOccurrences(of: "LOG", with: fixture.log))
        let lines = try fixture.logLines()
        #expect(lines.count == 4)
        #expect(lines.first?.contains(" stocktake-nightly: start (pid ") == true)
        #expect(lines.first?.hasSuffix("): \(fixture.stocktake) run --env-file \(fixture.environmentFile)") == true)
        #expect(lines.dropFirst().first == WrapperFixture.logLine)
        #expect(lines.dropFirst(2).first == WrapperFixture.summaryLine)
        #expect(lines.last?.hasSuffix(" stocktake-nightly: end: stocktake run exited with status \(status)") == true)
    }

    @Test func wrapperBuildsTheArgumentsFromTheEnvironmentFile() throws {
        let fixture = try WrapperFixture(stocktakeStatus: 0)
        defer { fixture.folder.remove() }
        try fixture.writeEnvironmentFile(
            fixture.basicSettings + [
                "STOCKTAKE_JOBS='\(fixture.folder.path)/Jobs folder'", "STOCKTAKE_STATE=/var/lib/stocktake/state",
                "STOCKTAKE_ACCOUNTS=\"vt-nis acme\"", "STOCKTAKE_SHARD=1/4", "STOCKTAKE_PARALLEL=3",
            ])

        let run = try fixture.runWrapper(arguments: ["--dry-run"])

        #expect(run.status == 0)
        #expect(
            try fixture.argumentsSeen() == [
                "run", "--jobs", "\(fixture.folder.path)/Jobs folder", "--state", "/var/lib/stocktake/state",
                "--account", "vt-nis", "--account", "acme", "--shard", "1/4", "--parallel", "3", "--env-file",
                fixture.environmentFile, "--dry-run",
            ])
    }

    @Test func wrapperRotatesTheLogPastItsSizeLimit() throws {
        let fixture = try WrapperFixture(stocktakeStatus: 0)
        defer { fixture.folder.remove() }
        try fixture.writeEnvironmentFile(
            fixture.basicSettings + ["STOCKTAKE_LOG_MAX_BYTES=1000", "STOCKTAKE_LOG_KEEP=2"])
        try FileManager.default.createDirectory(atPath: fixture.folder.file("log"), withIntermediateDirectories: true)
        let oldest = String(repeating: "night 0\n", count: 150)
        try oldest.write(toFile: fixture.log, atomically: true, encoding: .utf8)
        try "night 1\n".write(toFile: fixture.log + ".1", atomically: true, encoding: .utf8)
        try "night 2\n".write(toFile: fixture.log + ".2", atomically: true, encoding: .utf8)

        let run = try fixture.runWrapper()

        #expect(run.status == 0)
        #expect(try String(contentsOfFile: fixture.log + ".1", encoding: .utf8) == oldest)
        #expect(try String(contentsOfFile: fixture.log + ".2", encoding: .utf8) == "night 1\n")
        #expect(!FileManager.default.fileExists(atPath: fixture.log + ".3"))
        let lines = try fixture.logLines()
        #expect(lines.count == 4)
        #expect(lines.dropFirst(2).first == WrapperFixture.summaryLine)

        // The fresh log is under the limit now: the next run appends to it.
        let second = try fixture.runWrapper()
        #expect(second.status == 0)
        #expect(try fixture.logLines().count == 8)
        #expect(try String(contentsOfFile: fixture.log + ".1", encoding: .utf8) == oldest)
    }

    @Test func aSecondStartWhileTheLockIsHeldExits75() throws {
        let flock = try #require(ProgramRun.find("flock"), "flock (Debian package util-linux) is not installed")
        let fixture = try WrapperFixture(stocktakeStatus: 0)
        defer { fixture.folder.remove() }
        try fixture.writeEnvironmentFile(fixture.basicSettings)

        // `flock LOCK COMMAND` holds the lock while the wrapper, started as COMMAND, tries to take it.
        let blocked = try ProgramRun.run(
            flock, [fixture.lock, CronFolder.path("stocktake-nightly")], environment: fixture.environment,
            in: fixture.folder)

        #expect(blocked.status == 75)
        #expect(
            blocked.errors
                == "stocktake-nightly: another stocktake-nightly run holds \(fixture.lock); "
                + "not starting a second one (try again later).\n")
        #expect(blocked.output == "")
        #expect(!FileManager.default.fileExists(atPath: fixture.argumentsFile))
        #expect(try fixture.logLines() == [])

        let free = try fixture.runWrapper()
        #expect(free.status == 0)
        #expect(try fixture.argumentsSeen() == ["run", "--env-file", fixture.environmentFile])
    }

    @Test func aMissingEnvironmentFileIsFine() throws {
        let fixture = try WrapperFixture(stocktakeStatus: 0)
        defer { fixture.folder.remove() }
        var environment = fixture.environment
        for setting in fixture.basicSettings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            environment[parts[0]] = parts[1]
        }

        let run = try ProgramRun.run(
            CronFolder.path("stocktake-nightly"), [], environment: environment, in: fixture.folder)

        #expect(!FileManager.default.fileExists(atPath: fixture.environmentFile))
        #expect(run.status == 0)
        #expect(run.output == WrapperFixture.summaryLine + "\n")
        #expect(run.errors == "")
        #expect(try fixture.logLines().count == 4)
    }

    @Test func tokensReachStocktakeOnlyThroughTheEnvironmentFileNeverItsEnvironmentTheLogOrTheMail() throws {
        let fixture = try WrapperFixture(stocktakeStatus: 75)
        defer { fixture.folder.remove() }
        let token = "tok-4711-very-secret"
        let northToken = "tok-north-0815"
        try fixture.writeEnvironmentFile(
            fixture.basicSettings + [
                "STOCKTAKE_TOKEN=\(token)", "export STOCKTAKE_TOKEN_NORTH='\(northToken)'", "STOCKTAKE_SHARDS=4",
            ])

        let run = try fixture.runWrapper()

        #expect(run.status == 75)
        #expect(try fixture.argumentsSeen() == ["run", "--env-file", fixture.environmentFile])
        let seen = try fixture.environmentSeen()
        #expect(seen["STOCKTAKE_SHARDS"] == "4")
        #expect(seen["STOCKTAKE_TOKEN"] == nil)
        #expect(seen["STOCKTAKE_TOKEN_NORTH"] == nil)
        #expect(!seen.values.contains { $0.contains(token) || $0.contains(northToken) })
        let log = try String(contentsOfFile: fixture.log, encoding: .utf8)
        #expect(log.contains(WrapperFixture.summaryLine))
        for secret in [token, northToken] {
            #expect(!log.contains(secret))
            #expect(!run.output.contains(secret))
            #expect(!run.errors.contains(secret))
        }
    }

    @Test(arguments: [
        (UInt16(0o644), "-rw-r--r--", "others can read it"),
        (0o660, "-rw-rw----", "its group can write it"),
        (0o602, "-rw-----w-", "others can write it"),
        (0o666, "-rw-rw-rw-", "its group can write it, others can read it, others can write it"),
    ])
    func anEnvironmentFileOthersCanReadOrWriteIsRefused(mode: UInt16, permissions: String, who: String) throws {
        let fixture = try WrapperFixture(stocktakeStatus: 0)
        defer { fixture.folder.remove() }
        try fixture.writeEnvironmentFile(fixture.basicSettings + ["STOCKTAKE_TOKEN_NORTH=tok-north"], mode: mode)

        let run = try fixture.runWrapper()

        #expect(run.status == 78)
        #expect(
            run.errors
                == "stocktake-nightly: refusing the environment file \(fixture.environmentFile): it has permissions "
                + "\(permissions) and \(who), but it may hold tokens. Run chmod 600 \(fixture.environmentFile) "
                + "(or 640 to let its group read it).\n")
        #expect(run.output == "")
        #expect(!FileManager.default.fileExists(atPath: fixture.argumentsFile), "stocktake was started")
        #expect(try fixture.logLines() == [])
    }

    @Test func anEnvironmentFileTheShellCannotReadIsAConfigurationError() throws {
        let fixture = try WrapperFixture(stocktakeStatus: 0)
        defer { fixture.folder.remove() }
        try fixture.writeEnvironmentFile(fixture.basicSettings + ["STOCKTAKE_JOBS='/srv/unterminated"])

        let run = try fixture.runWrapper()

        #expect(run.status == 78)
        #expect(
            run.errors.hasSuffix(
                "stocktake-nightly: cannot read the settings in the environment file \(fixture.environmentFile); "
                    + "check it with: sh -n \(fixture.environmentFile)\n"))
        #expect(!FileManager.default.fileExists(atPath: fixture.argumentsFile), "stocktake was started")
    }

    @Test func settingsWithQuotesAndSpacesSurviveTheSubshell() throws {
        let fixture = try WrapperFixture(stocktakeStatus: 0)
        defer { fixture.folder.remove() }
        try fixture.writeEnvironmentFile(
            fixture.basicSettings + [#"STOCKTAKE_STATE="/srv/it's state""#, "export STOCKTAKE_JOBS='/srv/$HOME jobs'"])

        let run = try fixture.runWrapper()

        #expect(run.status == 0)
        #expect(
            try fixture.argumentsSeen() == [
                "run", "--jobs", "/srv/$HOME jobs", "--state", "/srv/it's state", "--env-file", fixture.environmentFile,
            ])
        #expect(try fixture.environmentSeen()["STOCKTAKE_JOBS"] == nil)
    }

    @Test func anEnvironmentFileItsGroupMayReadIsAccepted() throws {
        let fixture = try WrapperFixture(stocktakeStatus: 0)
        defer { fixture.folder.remove() }
        try fixture.writeEnvironmentFile(fixture.basicSettings, mode: 0o640)

        let run = try fixture.runWrapper()

        #expect(run.status == 0)
        #expect(run.errors == "")
        #expect(try fixture.argumentsSeen() == ["run", "--env-file", fixture.environmentFile])
    }

    @Test func aMissingStocktakeProgramIsAConfigurationError() throws {
        let fixture = try WrapperFixture(stocktakeStatus: 0)
        defer { fixture.folder.remove() }
        let absent = fixture.folder.file("no-such-stocktake")
        try fixture.writeEnvironmentFile(["STOCKTAKE_BIN=\(absent)", "STOCKTAKE_LOG=\(fixture.log)"])

        let run = try fixture.runWrapper()

        #expect(run.status == 78)
        #expect(
            run.errors
                == "stocktake-nightly: cannot find the stocktake program '\(absent)'; "
                + "set STOCKTAKE_BIN in \(fixture.environmentFile) to its full path.\n")
    }

    @Test func theEnvironmentExampleDocumentsEveryWrapperSettingAndSetsNone() throws {
        let example = try CronFolder.text("stocktake.env.example")
        let settingLines = example.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(settingLines == [])

        let wrapper = try CronFolder.text("stocktake-nightly")
        let read = Set(Self.variableNames(in: wrapper))
        #expect(read.count >= 12)
        for name in read.sorted() {
            #expect(example.contains(name), "stocktake.env.example does not mention \(name)")
        }
    }

    // MARK: systemd

    @Test(.enabled(if: systemdAnalyzeProgram != nil, "systemd-analyze is not installed"))
    func systemdUnitsPassTheVerifier() throws {
        let analyze = try #require(Self.systemdAnalyzeProgram)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The verifier wants ExecStart to exist, so the copy points at this repository's wrapper.
        let service = try CronFolder.text("stocktake.service").replacingOccurrences(
            of: "ExecStart=/usr/local/bin/stocktake-nightly",
            with: "ExecStart=\(CronFolder.path("stocktake-nightly"))")
        try service.write(toFile: folder.file("stocktake.service"), atomically: true, encoding: .utf8)
        try CronFolder.text("stocktake.timer").write(
            toFile: folder.file("stocktake.timer"), atomically: true, encoding: .utf8)

        let verify = try ProgramRun.run(
            analyze, ["verify", folder.file("stocktake.service"), folder.file("stocktake.timer")], in: folder)

        #expect(verify.status == 0)
        #expect(verify.output + verify.errors == "")
    }

    @Test func systemdUnitsRunTheWrapperNightlyAndCatchUp() throws {
        let service = try CronFolder.text("stocktake.service").split(separator: "\n").map(String.init)
        let timer = try CronFolder.text("stocktake.timer").split(separator: "\n").map(String.init)
        #expect(service.contains("Type=oneshot"))
        #expect(service.contains("ExecStart=/usr/local/bin/stocktake-nightly"))
        #expect(timer.contains("OnCalendar=*-*-* 02:15:00"))
        #expect(timer.contains("Persistent=true"))
        #expect(timer.contains("Unit=stocktake.service"))
        #expect(timer.contains("WantedBy=timers.target"))
    }

    // MARK: Kubernetes

    @Test func kubernetesCronJobRunsAnIndexedJobOfShards() throws {
        let text = try CronFolder.text("kubernetes-cronjob.yaml")
        #expect(!text.contains("\t"), "YAML does not allow tabs for indentation")
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for required in [
            "apiVersion: batch/v1", "kind: CronJob", "concurrencyPolicy: Forbid", "completionMode: Indexed",
            "restartPolicy: Never", "- name: STOCKTAKE_TOKEN_VT_NIS", "secretKeyRef:", "name: stocktake-token",
            "mountPath: /srv/stocktake/Jobs", "mountPath: /srv/stocktake/state", "claimName: stocktake-jobs",
            "claimName: stocktake-state", "schedule: \"15 2 * * *\"",
        ] {
            #expect(lines.contains(required), "kubernetes-cronjob.yaml lacks the line \(required)")
        }

        func value(of key: String) -> Int? {
            lines.first { $0.hasPrefix(key + ": ") }.flatMap { Int($0.dropFirst(key.count + 2)) }
        }
        let completions = try #require(value(of: "completions"))
        let parallelism = try #require(value(of: "parallelism"))
        let command = lines.drop { $0 != "command:" }.dropFirst().prefix { $0.hasPrefix("- ") }.map {
            $0.dropFirst(2).replacingOccurrences(of: "\"", with: "")
        }
        #expect(Array(command.prefix(2)) == ["stocktake", "run"])
        let shardCount = try #require(command.firstIndex(of: "--shard-count")).advanced(by: 1)
        #expect(command.dropFirst(shardCount).first == String(completions))
        #expect(completions == 8)
        #expect(parallelism == 4)
    }

    /// The `STOCKTAKE_…` names in `text`, in order of appearance.
    private static func variableNames(in text: String) -> [String] {
        let bytes = Array(text.utf8)
        let prefix = Array("STOCKTAKE_".utf8)
        var names: [String] = []
        var index = 0
        while index + prefix.count <= bytes.count {
            guard bytes[index..<index + prefix.count].elementsEqual(prefix) else {
                index += 1
                continue
            }
            var end = index + prefix.count
            while end < bytes.count, bytes[end] == UInt8(ascii: "_") || (bytes[end] >= 65 && bytes[end] <= 90) {
                end += 1
            }
            names.append(String(decoding: bytes[index..<end], as: UTF8.self))
            index = end
        }
        return names
    }
}

/// The repository's `cron/` folder, found from this file's path.
private enum CronFolder {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("cron")

    static func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }
}

/// A folder of its own for one test, under the system's temporary folder.
private struct TemporaryFolder {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cron-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    func file(_ name: String) -> String {
        path + "/" + name
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A fake `stocktake` that records its arguments and token and exits with a chosen status, and the wrapper's
/// settings pointing at it.
private struct WrapperFixture {
    static let summaryLine = "vt-nis  120 assets  2 errors  5 warnings  pushed  state/vt-nis/latest/report.html"
    static let logLine = "2026-11-23T02:15:01Z vt-nis: pulled the central sheet"

    let folder: TemporaryFolder
    var stocktake: String { folder.file("fake-stocktake") }
    var log: String { folder.file("log/stocktake.log") }
    var lock: String { folder.file("nightly.lock") }
    var environmentFile: String { folder.file("stocktake.env") }
    var argumentsFile: String { folder.file("arguments") }
    var environmentSeenFile: String { folder.file("environment") }

    /// The settings every run needs: the fake program, the log and the lock inside the test's folder.
    var basicSettings: [String] {
        ["STOCKTAKE_BIN=\(stocktake)", "STOCKTAKE_LOG=\(log)", "STOCKTAKE_LOCK=\(lock)"]
    }

    /// The process environment of the wrapper: no settings of the machine running the tests leak in.
    var environment: [String: String] {
        [
            "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": folder.path, "TMPDIR": folder.path, "LC_ALL": "C",
            "STOCKTAKE_ENV_FILE": environmentFile,
        ]
    }

    init(stocktakeStatus: Int32) throws {
        folder = try TemporaryFolder()
        let script = """
            #!/bin/sh
            for argument in "$@"; do printf '%s\\n' "$argument"; done >'\(argumentsFile)'
            env >'\(environmentSeenFile)'
            echo '\(Self.logLine)' >&2
            echo '\(Self.summaryLine)'
            exit \(stocktakeStatus)

            """
        // Written through a close-on-exec descriptor: a program another test starts meanwhile must not inherit it
        // open for writing, or running the script would fail with "Text file busy".
        let descriptor = open(stocktake, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw ProgramRun.Failure.cannotWrite(file: stocktake, code: errno) }
        let bytes = Array(script.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else { throw ProgramRun.Failure.cannotWrite(file: stocktake, code: errno) }
    }

    /// Writes the environment file with `mode` (by default one only its owner can read, as the wrapper requires).
    func writeEnvironmentFile(_ settings: [String], mode: UInt16 = 0o600) throws {
        try (["# written by CronFilesTests"] + settings).joined(separator: "\n").appending("\n").write(
            toFile: environmentFile, atomically: true, encoding: .utf8)
        guard chmod(environmentFile, mode_t(mode)) == 0 else {
            throw ProgramRun.Failure.cannotWrite(file: environmentFile, code: errno)
        }
    }

    /// The environment the fake `stocktake` was last started with.
    func environmentSeen() throws -> [String: String] {
        var seen: [String: String] = [:]
        for line in try String(contentsOfFile: environmentSeenFile, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            seen[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return seen
    }

    func runWrapper(arguments: [String] = []) throws -> ProgramRun {
        try ProgramRun.run(CronFolder.path("stocktake-nightly"), arguments, environment: environment, in: folder)
    }

    /// The arguments the fake `stocktake` was last started with, one per element.
    func argumentsSeen() throws -> [String] {
        try String(contentsOfFile: argumentsFile, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The lines of the log file; none when it does not exist.
    func logLines() throws -> [String] {
        guard FileManager.default.fileExists(atPath: log) else { return [] }
        return try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }
}

/// One finished run of an external program: its exit status and what it wrote.
private struct ProgramRun {
    /// The exit status, or 128 + the signal number when a signal ended the program.
    let status: Int32
    let output: String
    let errors: String

    /// Why a program could not be run, or the fake program not written.
    enum Failure: Error, CustomStringConvertible {
        case cannotStart(program: String, code: Int32)
        case cannotWait(program: String, code: Int32)
        case cannotWrite(file: String, code: Int32)

        var description: String {
            switch self {
            case .cannotStart(let program, let code):
                return "Could not start \(program): \(String(cString: strerror(code))). Check that it is installed."
            case .cannotWait(let program, let code):
                return "Could not wait for \(program): \(String(cString: strerror(code)))."
            case .cannotWrite(let file, let code):
                return "Could not write \(file): \(String(cString: strerror(code))). Check the temporary folder."
            }
        }
    }

    /// The first executable called `name` in the usual system folders.
    static func find(_ name: String) -> String? {
        ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"].map { $0 + "/" + name }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Runs `program` with `arguments` and exactly `environment`, with standard input from `/dev/null` and its output
    /// kept in files of `folder`, and waits for it.
    ///
    /// `posix_spawn` and `waitpid` rather than Foundation's `Process`, whose `waitUntilExit` can hang under the test
    /// runner. The child gets an empty signal mask and default signal handlers.
    static func run(
        _ program: String, _ arguments: [String], environment: [String: String] = ["PATH": "/usr/bin:/bin"],
        in folder: TemporaryFolder
    ) throws -> ProgramRun {
        let name = UUID().uuidString
        let outputFile = folder.file("\(name).out")
        let errorsFile = folder.file("\(name).err")
        defer {
            unlink(outputFile)
            unlink(errorsFile)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorsFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argumentStrings: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        let environmentStrings: [UnsafeMutablePointer<CChar>?] =
            environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for string in argumentStrings + environmentStrings { free(string) }
        }

        var child = pid_t()
        let started = posix_spawn(&child, program, &actions, &attributes, argumentStrings, environmentStrings)
        guard started == 0 else { throw Failure.cannotStart(program: program, code: started) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure.cannotWait(program: program, code: errno) }
        }
        let signal = status & 0x7F
        return ProgramRun(
            status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal,
            output: (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOfFile: errorsFile, encoding: .utf8)) ?? "")
    }
}
