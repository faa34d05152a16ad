import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `stocktake run` with one account in trouble: each account runs in its own process, so the trouble stays there.
@Suite(.serialized)
struct RunIsolationTests {
    let runner = CommandRunner()

    /// A small, healthy account `name` whose central sheet has `rows` sighted tags.
    func account(_ name: String, rows: Int, firstTag: Int = 100_000) {
        var central = ["VT Tag,Serial"]
        var scans = ["Tag,Serial"]
        for tag in firstTag..<(firstTag + rows) {
            central.append("\(tag),S\(tag)")
            scans.append("\(tag),S\(tag)")
        }
        runner.write(central.joined(separator: "\n") + "\n", to: "data/\(name)/central.csv")
        runner.write(scans.joined(separator: "\n") + "\n", to: "data/\(name)/scans/a.csv")
        runner.write(
            """
            {"central": {"provider": "file", "url": "../../data/\(name)/central.csv"},
             "sightings": ["../../data/\(name)/scans/"]}
            """, to: "Jobs/\(name)/account.json")
    }

    /// Runs `program` with `arguments` in the runner's folder and waits for it.
    func run(_ program: String, _ arguments: [String]) throws -> CommandResult {
        try runner.run(program: program, arguments)
    }

    /// The audit's case: 3,000,000 tag-less rows (44 MB) needed about 3.2 GB, and since rows are kept packed about
    /// 1.8 GB (peak RSS of this debug build). Under a 3 GB limit for the whole run and `rules.maxMemoryMB` 1024 for
    /// that account, its process runs out and the other account still gets its line.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"), "needs prlimit (util-linux)"))
    func anAccountThatRunsOutOfMemoryFailsAloneAndTheOthersStillRun() throws {
        let stocktake = try #require(CommandRunner.executable)
        account("small", rows: 2)
        // serial,mac rows with unique serials and no VT tag: SN00000000000, … (15 bytes a row).
        var bytes = Array("serial,mac\n".utf8)
        bytes.reserveCapacity(45_000_100)
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: 11)
        for row in 0..<3_000_000 {
            var value = row
            for index in stride(from: 10, through: 0, by: -1) {
                digits[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            bytes += [UInt8(ascii: "S"), UInt8(ascii: "N")]
            bytes += digits
            bytes += [UInt8(ascii: ","), UInt8(ascii: "\n")]
        }
        #expect(bytes.count == 45_000_011)
        try #require(
            FileManager.default.createFile(atPath: runner.path("data/big-sightings.csv"), contents: Data(bytes)))
        runner.write("VT Tag,Serial\n100001,S1\n", to: "data/big-central.csv")
        runner.write(
            """
            {"central": {"provider": "file", "url": "../../data/big-central.csv"},
             "sightings": ["../../data/big-sightings.csv"], "rules": {"maxMemoryMB": 1024}}
            """, to: "Jobs/big/account.json")

        let result = try run(
            "/usr/bin/prlimit", ["--as=3221225472", "--", stocktake, "run", "--as-of", "2026-11-20", "--parallel", "2"])

        #expect(result.status == 75, "\(result.standardError.suffix(2000))")
        #expect(
            result.standardOutput
                == "1 of 2 accounts reconciled, 1 failed\n"
                + "big: FAILED: ran out of its 1,024 MB memory limit\n"
                + "small: 2 assets; 2 new, 0 open, 0 resolved findings; no push; "
                + "report state/small/\(try runner.latest("small"))/report.html\n")
        #expect(runner.read("state/small/latest/cleaned.csv")?.contains("100001") == true)
        #expect(runner.read("state/small/latest/report.html") != nil)
        #expect(runner.read("state/big/latest/cleaned.csv") == nil)
        #expect(
            result.standardError.contains(
                " [big] failed: ran out of its 1,024 MB memory limit. If the account really needs more, raise "
                    + "rules.maxMemoryMB in its account.json; otherwise check its files for runaway rows.\n"))
    }

    /// The hostile files of the issue, each in the sightings folder (or as the central sheet) of account `bad`.
    enum HostileFile: String, CaseIterable, Sendable {
        case linkOutside, hugeField, nulBytes, webPageAsCentral
    }

    /// Plants `kind` in account `bad`, whose other files are like `account`'s; returns the message `run` prints for
    /// it, given the run's folder.
    func plant(_ kind: HostileFile) throws -> (_ run: String) -> String {
        account("bad", rows: 2, firstTag: 200_000)
        let scans = runner.path("data/bad/scans")
        switch kind {
        case .linkOutside:
            runner.write("VT Tag,Serial\n300000,TOP-SECRET-SERIAL\n", to: "data/secret.csv")
            try FileManager.default.createSymbolicLink(
                atPath: scans + "/b.csv", withDestinationPath: "../../secret.csv")
            let real = try #require(realpath(runner.path("data/secret.csv"), nil))
            defer { free(real) }
            let target = String(cString: real)
            return { _ in
                "Jobs/bad/../../data/bad/scans/b.csv: it leads to \(target), outside the folders the account may read "
                    + "(rules.allowedRoots: Jobs/bad, Jobs/bad/../../data/bad/central.csv, Jobs/bad/../../data/bad/scans/, "
                    + "Jobs/bad/acknowledged.csv), "
                    + "so it is not read. "
                    + "Replace the link with the file itself, or add its folder to rules.allowedRoots in the "
                    + "account's account.json."
            }
        case .hugeField:
            // A field of 100 MB: refused at 1 MiB, before it is held.
            var bytes = Array("Tag,Serial\n200000,".utf8)
            bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 100 << 20)
            bytes += Array("\n".utf8)
            try #require(FileManager.default.createFile(atPath: scans + "/b.csv", contents: Data(bytes)))
            return { _ in
                "Jobs/bad/../../data/bad/scans/b.csv: the field in column 2 of the row on line 2 is longer than 1048576 bytes, so the "
                    + "file is not read. Check that it is the spreadsheet you meant; if the field is real, raise "
                    + "rules.maxFieldBytes in the account's account.json."
            }
        case .nulBytes:
            runner.write("Tag,Serial\n200000,S\u{0}\u{0}1\n", to: "data/bad/scans/b.csv")
            return { _ in
                "Jobs/bad/../../data/bad/scans/b.csv: line 2 holds a NUL byte, so the file is binary, not a sheet saved as text, and "
                    + "it is not read. Check that it is the spreadsheet you meant and save it as \"CSV UTF-8\"."
            }
        case .webPageAsCentral:
            runner.write("<!DOCTYPE html>\n<html><body>Sign in</body></html>\n", to: "data/bad/central.csv")
            return { run in
                "state/bad/runs/\(run)/pulled/central.csv: the file is a web page (HTML), not a spreadsheet, so it is "
                    + "not read; it may be a sign-in or error page saved in the sheet's place. Download the sheet "
                    + "again as \"CSV UTF-8\" or .xlsx."
            }
        }
    }

    /// A hostile file fails its account alone, with its sentence, and the other account's outputs are as usual;
    /// nothing of a file outside the account's folders is read into any output.
    @Test(arguments: HostileFile.allCases)
    func aHostileFileFailsItsAccountAloneAndTheOthersRun(kind: HostileFile) throws {
        account("small", rows: 2)
        let message = try plant(kind)

        let result = try runner.run(["run", "--as-of", "2026-11-20", "--parallel", "2"])

        let runs = try FileManager.default.contentsOfDirectory(atPath: runner.path("state/bad/runs"))
        let run = try #require(runs.first)
        #expect(result.status == 75, "\(result.standardError.suffix(2000))")
        #expect(
            result.standardOutput
                == "1 of 2 accounts reconciled, 1 failed\n"
                + "bad: FAILED: \(message(run))\n"
                + "small: 2 assets; 2 new, 0 open, 0 resolved findings; no push; "
                + "report state/small/\(try runner.latest("small"))/report.html\n")
        #expect(runner.read("state/small/latest/cleaned.csv")?.contains("100001") == true)
        #expect(runner.read("state/small/latest/report.html") != nil)
        #expect(runner.read("state/bad/latest/cleaned.csv") == nil)
        // The secret (linkOutside) appears in no file the run wrote and in nothing it printed.
        let written = FileManager.default.enumerator(atPath: runner.path("state"))?.compactMap { $0 as? String } ?? []
        for file in written {
            let contents = FileManager.default.contents(atPath: runner.path("state/" + file)) ?? Data()
            #expect(!String(decoding: contents, as: UTF8.self).contains("TOP-SECRET"), "\(file)")
        }
        #expect(!result.standardOutput.contains("TOP-SECRET") && !result.standardError.contains("TOP-SECRET"))
    }

    /// A central sheet that never answers (a FIFO nobody writes) under `rules.maxMinutes` 0.05: the account is stopped
    /// after 3 seconds and the other one still runs.
    @Test func anAccountPastItsTimeLimitIsStoppedAndTheOthersStillRun() throws {
        account("fine", rows: 1)
        try FileManager.default.createDirectory(
            atPath: runner.path("data/stalled"), withIntermediateDirectories: true)
        try #require(mkfifo(runner.path("data/stalled/central.csv"), 0o600) == 0)
        runner.write(
            """
            {"central": {"provider": "file", "url": "../../data/stalled/central.csv"}, "rules": {"maxMinutes": 0.05}}
            """, to: "Jobs/stalled/account.json")
        let started = Date()

        let result = try runner.run(["run", "--as-of", "2026-11-20", "--parallel", "2"])

        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 75, "\(result.standardError)")
        #expect(
            result.standardOutput
                == "1 of 2 accounts reconciled, 1 failed\n"
                + "stalled: FAILED: ran out of its 3-second time limit\n"
                + "fine: 1 asset; 1 new, 0 open, 0 resolved findings; no push; "
                + "report state/fine/\(try runner.latest("fine"))/report.html\n")
        #expect(runner.read("state/fine/latest/cleaned.csv")?.contains("100000") == true)
        #expect(seconds >= 3 && seconds < 8, "took \(seconds) s")
        #expect(
            result.standardError.contains(
                " [stalled] failed: ran out of its 3-second time limit. If the account really needs longer, raise "
                    + "rules.maxMinutes in its account.json; otherwise check that its servers answer.\n"))
    }

    /// The children of a run killed with SIGKILL (no chance to clean up) end too: none goes on writing its account,
    /// and the account launcher ends with them.
    @Test func aKilledRunTakesItsAccountProcessesWithIt() throws {
        let stocktake = try #require(CommandRunner.executable)
        try FileManager.default.createDirectory(
            atPath: runner.path("data/stalled"), withIntermediateDirectories: true)
        try #require(mkfifo(runner.path("data/stalled/central.csv"), 0o600) == 0)
        runner.write(
            #"{"central": {"provider": "file", "url": "../../data/stalled/central.csv"}}"#,
            to: "Jobs/stalled/account.json")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: stocktake)
        process.arguments = ["run", "--as-of", "2026-11-20"]
        process.currentDirectoryURL = URL(fileURLWithPath: runner.folder)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var child: pid_t?
        let deadline = Date().addingTimeInterval(20)
        while child == nil, Date() < deadline {
            child = Self.accountProcess(in: runner.folder)
            usleep(20_000)
        }
        let pid = try #require(child, "no run-account process was started")
        let launcher = try #require(
            AccountLauncherTests.children(of: process.processIdentifier, running: "launch-accounts").first)

        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        let gone = Date().addingTimeInterval(5)
        while Self.isRunning(pid) || Self.isRunning(launcher), Date() < gone { usleep(20_000) }
        #expect(!Self.isRunning(pid), "the account's process outlived its run")
        #expect(!Self.isRunning(launcher), "the account launcher outlived its run")
        for leftover in [pid, launcher] where Self.isRunning(leftover) { kill(leftover, SIGKILL) }
    }

    /// A `stocktake run-account` process working in `folder`.
    static func accountProcess(in folder: String) -> pid_t? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry),
                let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/cwd"),
                cwd == folder, let command = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                command.split(separator: 0).contains(Data("run-account".utf8))
            else { continue }
            return pid
        }
        return nil
    }

    /// Whether `pid` runs (a zombie nobody reaped has ended).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return false }
        let text = String(decoding: stat, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return false }
        return !text[text.index(after: close)...].hasPrefix(" Z")
    }

    @Test func anEnvironmentFileOthersCanReadIsRefusedBeforeAnyAccountRuns() throws {
        account("north", rows: 1)
        let file = runner.write("STOCKTAKE_TOKEN_NORTH=tok-north-4711\n", to: "stocktake.env")
        try #require(chmod(file, 0o644) == 0)

        let result = try runner.run(["run", "--as-of", "2026-11-20", "--env-file", "stocktake.env"])

        #expect(result.status == 78)
        #expect(
            result.standardError
                == "stocktake: refusing the environment file stocktake.env: it has mode 644 and others can read it, "
                + "but it may hold tokens. Run chmod 600 stocktake.env (or 640 to let its group read it).\n")
        #expect(result.standardOutput == "")
        #expect(!FileManager.default.fileExists(atPath: runner.path("state")))
    }

    @Test func anEnvironmentFileWithALineTheShellReadsDifferentlyIsRefused() throws {
        account("north", rows: 1)
        let file = runner.write("STOCKTAKE_TOKEN_NORTH=tok north\n", to: "stocktake.env")
        try #require(chmod(file, 0o600) == 0)

        let result = try runner.run(["run", "--as-of", "2026-11-20", "--env-file", "stocktake.env"])

        #expect(result.status == 78)
        #expect(
            result.standardError
                == "stocktake: the environment file stocktake.env: line 1 has more after its value; put a value with "
                + "spaces in single quotes. Write NAME=VALUE, NAME='VALUE' or export NAME=VALUE, one a line.\n")
        #expect(!result.standardError.contains("tok"))
        #expect(!FileManager.default.fileExists(atPath: runner.path("state")))
    }

    @Test func aSafeEnvironmentFileIsAccepted() throws {
        account("north", rows: 1)
        let file = runner.write("# tokens\nexport STOCKTAKE_TOKEN_NORTH='tok-north'\n", to: "stocktake.env")
        try #require(chmod(file, 0o640) == 0)

        let result = try runner.run(["run", "--as-of", "2026-11-20", "--env-file", "stocktake.env"])

        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput
                == "1 of 1 account reconciled\nnorth: 1 asset; 1 new, 0 open, 0 resolved findings; no push; "
                + "report state/north/\(try runner.latest("north"))/report.html\n")
    }

    @Test func theChildCommandIsHiddenAndTheNewOptionsAreDocumented() throws {
        let overview = try runner.run(["--help"])
        #expect(!overview.standardOutput.contains("run-account"))
        #expect(!overview.standardOutput.contains("launch-accounts"))
        let help = try runner.run(["run", "--help"])
        #expect(
            help.standardOutput.contains(
                """
                    --accept-shrink           Accept tonight's central sheet even though it shrank beyond rules.maxShrink since the last
                                              good run, or is empty; for a deliberate cleanup.
                """))
        #expect(help.standardOutput.contains("    --env-file FILE           Read tokens (NAME=VALUE lines"))
    }
}
