import Foundation
import StocktakeCore
import Testing

@testable import StocktakeJob

#if canImport(Glibc)
    import Glibc
#endif

/// Each account in a child process: run with `NightlyRunOptions.executable` pointing at shell scripts that stand in
/// for `stocktake run-account`, so each way a child can end is made to happen exactly.
@Suite("Each account in its own process", .serialized)
struct AccountProcessTests {
    /// A site with accounts whose child is `script`: the body of a shell script that knows its account as
    /// `$account` and the folder to record in as `$records`.
    final class Site {
        let site = NightlyRunTests.Site()
        var records: String { site.root + "/records" }
        var program: String { site.root + "/fake-stocktake" }

        init(script: String) throws {
            try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
            let text = """
                #!/bin/sh
                records='\(records)'
                account=
                for argument in "$@"; do
                    case $argument in --account=*) account=${argument#--account=} ;; esac
                done
                for argument in "$@"; do printf '%s\\n' "$argument"; done >"$records/arguments-$account"
                env >"$records/environment-$account"
                result() {
                    printf '{"account":"%s","assets":%s,"errors":0,"push":"no push","report":"","status":0,"warnings":0}\\n' \\
                        "$account" "$1"
                }
                \(script)

                """
            // Written through a close-on-exec descriptor: a program another test starts meanwhile must not inherit it
            // open for writing, or running the script would fail with "Text file busy".
            let descriptor = open(program, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
            try #require(descriptor >= 0)
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            try #require(written == bytes.count)
        }

        /// An account with a small local central sheet and `rules` (the inside of its rules object).
        func account(_ name: String, rules: String = "", auth: String = "") {
            site.write("VT Tag\n100001\n", to: "data/\(name)/central.csv")
            let authKey = auth.isEmpty ? "" : #", "auth": {"tokenVariable": "\#(auth)"}"#
            site.write(
                """
                {"central": {"provider": "file", "url": "../../data/\(name)/central.csv"},
                 "rules": {\(rules)}\(authKey)}
                """, to: "Jobs/\(name)/account.json")
        }

        func options() -> NightlyRunOptions {
            var options = site.options()
            options.executable = program
            return options
        }

        /// The arguments the child of `account` got, or `nil` when none was started.
        func arguments(_ account: String) -> [String]? {
            site.read("records/arguments-\(account)").map { $0.split(separator: "\n").map(String.init) }
        }

        /// The environment the child of `account` got.
        func environment(_ account: String) throws -> [String: String] {
            let text = try #require(site.read("records/environment-\(account)"))
            var variables: [String: String] = [:]
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                variables[parts[0]] = parts.count > 1 ? parts[1] : ""
            }
            return variables
        }
    }

    @Test func eachChildSeesOnlyItsOwnTokenVariable() throws {
        let site = try Site(script: "result 1")
        site.account("north", auth: "STOCKTAKE_TOKEN_ISOLATION_NORTH")
        site.account("south", auth: "ISOLATION_SOUTH_SECRET")
        site.account("plain")
        // south's token is in this process's environment, north's only in the environment file, next to a
        // variable no account names.
        setenv("ISOLATION_SOUTH_SECRET", "south-secret", 1)
        defer { unsetenv("ISOLATION_SOUTH_SECRET") }
        var options = site.options()
        options.fileEnvironment = [
            "STOCKTAKE_TOKEN_ISOLATION_NORTH": "north-secret", "ISOLATION_FILE_ONLY": "file-secret",
        ]
        options.parallel = 3

        let outcomes = NightlyRun.run(options)

        #expect(
            outcomes.map(\.line) == [
                "north: 1 asset; 0 new, 0 open, 0 resolved findings; no push",
                "plain: 1 asset; 0 new, 0 open, 0 resolved findings; no push",
                "south: 1 asset; 0 new, 0 open, 0 resolved findings; no push",
            ])
        let north = try site.environment("north")
        let south = try site.environment("south")
        let plain = try site.environment("plain")
        #expect(north["STOCKTAKE_TOKEN_ISOLATION_NORTH"] == "north-secret")
        #expect(south["ISOLATION_SOUTH_SECRET"] == "south-secret")
        for (name, environment) in [("north", north), ("south", south), ("plain", plain)] {
            let secrets = environment.filter { $0.value.hasSuffix("-secret") }
            #expect(secrets.count == (name == "plain" ? 0 : 1), "\(name) saw \(secrets.keys.sorted())")
            #expect(environment["ISOLATION_FILE_ONLY"] == nil)
            #expect(environment["MALLOC_ARENA_MAX"] == "2")
            #expect(environment["SWIFT_BACKTRACE"] == "registers=none,images=none")
            // The rest of the parent's environment is passed on.
            #expect(environment["PATH"] == ProcessInfo.processInfo.environment["PATH"])
        }
        // The environment file never reaches this process's own environment.
        #expect(getenv("STOCKTAKE_TOKEN_ISOLATION_NORTH") == nil)
    }

    @Test func aChildInheritsNoDescriptorOfItsParentBeyondTheStandardThree() throws {
        let site = try Site(script: #"ls -l /proc/$$/fd/ >"$records/descriptors-$account"; result 1"#)
        site.account("north")
        // Like the nightly wrapper's lock on descriptor 9: open in the parent and not close-on-exec.
        let held = site.site.root + "/held-open"
        let descriptor = open(held, O_WRONLY | O_CREAT, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }

        let outcomes = NightlyRun.run(site.options())

        #expect(outcomes.map(\.status) == [.success])
        let descriptors = try #require(site.site.read("records/descriptors-north"))
        #expect(descriptors.contains(" 0 -> "))
        #expect(!descriptors.contains(held), "\(descriptors)")
        #expect(fcntl(descriptor, F_GETFD) >= 0, "the parent's own descriptor stays open")
    }

    @Test func theChildIsToldTheAccountItsLimitAndTheRunsOptions() throws {
        let site = try Site(script: "result 1")
        site.account("north", rules: #""maxMemoryMB": 2048"#)
        var options = site.options()
        options.push = false
        options.acceptShrink = true

        _ = NightlyRun.run(options)

        #expect(
            site.arguments("north") == [
                "run-account", "--jobs=" + site.site.jobs, "--state=" + site.site.state, "--account=north",
                "--as-of=2026-11-20", "--max-memory-mb=2048", "--no-push", "--accept-shrink", "--quiet",
            ])
    }

    /// What the findings did, and whether the night was suspect, travel from the child's result line to the
    /// account's line and the mail.
    @Test func aChildsFindingCountsAndSuspicionReachTheMail() throws {
        let site = try Site(
            script: #"""
                if [ "$account" = beta ]; then
                    printf '{"account":"beta","assets":0,"errors":0,"push":"failed: Account beta: the central sheet has 0 rows.","report":"","status":65,"suspect":true,"warnings":0}\n'
                else
                    printf '{"account":"%s","acknowledged":1,"assets":7,"errors":3,"new":2,"newErrors":1,"open":5,"push":"no push","report":"r.html","resolved":4,"status":0,"summary":"%s/summary.txt","warnings":4}\n' "$account" "$records"
                fi
                """#)
        site.account("alpha")
        site.account("beta")
        site.site.write("stocktake: account alpha, as of 2026-11-20\nReport: r.html\n", to: "records/summary.txt")

        let outcomes = NightlyRun.run(site.options())

        #expect(outcomes.map(\.status) == [.success, .dataError])
        #expect(
            NightlyMail.text(outcomes) == """
                1 of 2 accounts reconciled, 1 suspect
                beta: SUSPECT: Account beta: the central sheet has 0 rows.
                alpha: 7 assets; 2 new, 5 open, 4 resolved, 1 acknowledged findings; no push; report r.html

                == alpha: 1 new error finding ==
                stocktake: account alpha, as of 2026-11-20
                Report: r.html

                """)
    }

    @Test func aChildThatAbortsFailsItsAccountAloneWithTheSignal() throws {
        let site = try Site(script: #"if [ "$account" = crash ]; then kill -ABRT $$; fi; result 1"#)
        site.account("crash")
        site.account("fine")

        let outcomes = NightlyRun.run(site.options())

        #expect(outcomes.map(\.status) == [.temporaryFailure, .success])
        #expect(
            outcomes.map(\.line) == [
                "crash: FAILED: its process crashed (signal 6, SIGABRT)",
                "fine: 1 asset; 0 new, 0 open, 0 resolved findings; no push",
            ])
        #expect(NightlyRun.exitStatus(outcomes) == .temporaryFailure)
    }

    @Test func aChildThatEndsWithoutAResultFailsItsAccount() throws {
        let site = try Site(script: #"if [ "$account" = quiet ]; then echo 'not a result'; exit 3; fi; result 1"#)
        site.account("quiet")
        site.account("fine")

        let outcomes = NightlyRun.run(site.options())

        #expect(
            outcomes.map(\.line) == [
                "fine: 1 asset; 0 new, 0 open, 0 resolved findings; no push",
                "quiet: FAILED: its process ended with status 3 without a result",
            ])
        #expect(NightlyRun.exitStatus(outcomes) == .temporaryFailure)
    }

    @Test func aResultForAnotherAccountIsNoResult() throws {
        let site = try Site(script: #"account=someone-else; result 5"#)
        site.account("north")

        let outcomes = NightlyRun.run(site.options())

        #expect(
            outcomes.map(\.line) == [
                "north: FAILED: its process ended with status 0 without a result"
            ])
    }

    @Test func aChildPastItsTimeLimitIsStoppedAndTheOthersFinish() throws {
        let site = try Site(script: #"if [ "$account" = slow ]; then exec sleep 60; fi; result 1"#)
        site.account("slow", rules: #""maxMinutes": 0.05"#)
        site.account("fine")
        let started = Date()

        let outcomes = NightlyRun.run(site.options())

        let seconds = Date().timeIntervalSince(started)
        #expect(
            outcomes.map(\.line) == [
                "fine: 1 asset; 0 new, 0 open, 0 resolved findings; no push",
                "slow: FAILED: ran out of its 3-second time limit",
            ])
        #expect(seconds >= 3 && seconds < 3 + AccountProcess.gracePeriod, "took \(seconds) s")
    }

    @Test func aChildThatIgnoresSIGTERMIsKilledAfterTheGracePeriod() throws {
        let site = try Site(
            script: #"trap '' TERM; echo $$ >"$records/pid"; while :; do sleep 1; done"#)
        site.account("stubborn", rules: #""maxMinutes": 0.02"#)
        let started = Date()

        let outcomes = NightlyRun.run(site.options())

        let seconds = Date().timeIntervalSince(started)
        #expect(
            outcomes.map(\.line) == [
                "stubborn: FAILED: ran out of its 1-second time limit"
            ])
        #expect(seconds >= 1.2 + AccountProcess.gracePeriod, "took \(seconds) s")
        let pid = try #require(site.site.read("records/pid").flatMap { pid_t($0.split(separator: "\n")[0]) })
        #expect(kill(pid, 0) != 0, "the child is still running")
    }

    /// A child that says it only waits for the disk gives its place to the next account: with one account at a
    /// time, the second starts while the first is still running.
    @Test func theNextAccountStartsWhileAChildOnlyWaitsForTheDisk() throws {
        let site = try Site(
            script: #"""
                if [ "$account" = first ]; then
                    echo 'computed; flushing'
                    i=0
                    while [ ! -e "$records/arguments-second" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
                    if [ -e "$records/arguments-second" ]; then echo overlapped; else echo alone; fi >"$records/first"
                fi
                result 1
                """#)
        site.account("first")
        site.account("second")
        var options = site.options()
        options.parallel = 1

        let outcomes = NightlyRun.run(options)

        #expect(outcomes.map(\.status) == [.success, .success])
        #expect(site.site.read("records/first") == "overlapped\n")
    }

    /// Places come back only when a child has finished computing: two at a time never have a third computing
    /// beside them, however many wait for the disk.
    @Test func noMoreAccountsComputeAtOnceThanParallelAllows() throws {
        let site = try Site(
            script: #"""
                touch "$records/computing-$account"
                sleep 0.2
                ls "$records" | grep -c '^computing-' >"$records/count-$account"
                rm "$records/computing-$account"
                echo 'computed; flushing'
                sleep 0.3
                result 1
                """#)
        let names = ["a", "b", "c", "d", "e"]
        for name in names { site.account(name) }
        var options = site.options()
        options.parallel = 2

        let outcomes = NightlyRun.run(options)

        #expect(outcomes.map(\.status) == Array(repeating: .success, count: names.count))
        let counts = names.map { site.site.read("records/count-\($0)").flatMap { Int($0.filter(\.isNumber)) } }
        #expect(counts.allSatisfy { ($0 ?? 99) <= 2 }, "\(counts)")
    }

    /// A child that said it only waits for the disk and then crashes, or ends without its result, fails its account
    /// as any other: the line is not an outcome.
    @Test func aChildThatEndsBadlyAfterItFinishedComputingFailsItsAccount() throws {
        let site = try Site(
            script: #"""
                echo 'computed; flushing'
                if [ "$account" = crash ]; then kill -ABRT $$; fi
                exit 3
                """#)
        site.account("crash")
        site.account("quiet")

        let outcomes = NightlyRun.run(site.options())

        #expect(
            outcomes.map(\.line) == [
                "crash: FAILED: its process crashed (signal 6, SIGABRT)",
                "quiet: FAILED: its process ended with status 3 without a result",
            ])
    }

    @Test func aBrokenConfigurationStartsNoProcess() throws {
        let site = try Site(script: "result 1")
        site.site.write(#"{"central": "nowhere.csv"}"#, to: "Jobs/broken/account.json")
        site.account("fine")

        let outcomes = NightlyRun.run(site.options())

        #expect(outcomes.map(\.status) == [.configuration, .success])
        #expect(outcomes[0].push.hasPrefix("skipped: Account broken: \"central\" names "))
        #expect(site.arguments("broken") == nil)
        #expect(site.arguments("fine") != nil)
        #expect(NightlyRun.exitStatus(outcomes) == .configuration)
    }

    @Test func aProgramThatCannotBeStartedFailsEachAccount() throws {
        let site = try Site(script: "result 1")
        site.account("north")
        var options = site.options()
        options.executable = site.site.root + "/no-such-stocktake"

        let outcomes = NightlyRun.run(options)

        #expect(
            outcomes.map(\.line) == [
                "north: FAILED: its process could not be started from "
                    + "\(site.site.root)/no-such-stocktake: No such file or directory"
            ])
        #expect(outcomes.map(\.status) == [.temporaryFailure])
    }

    // MARK: How an ended child is classified

    func process(memoryLimitMB: Int = 2048, maxMinutes: Double = 60) -> AccountProcess {
        var config = AccountConfig(
            folder: "/jobs/north", account: AccountName("north")!, name: "north",
            central: AccountConfig.Source(provider: "file", location: "central.csv"))
        config.maxMemoryMB = memoryLimitMB
        config.maxMinutes = maxMinutes
        var process = AccountProcess(
            account: "north", config: config, options: NightlyRunOptions(), executable: "/bin/false",
            environment: [:])
        process.memoryLimitMB = memoryLimitMB
        return process
    }

    func usage(maximumResidentKB: Int) -> rusage {
        var usage = rusage()
        usage.ru_maxrss = maximumResidentKB
        return usage
    }

    @Test func aSignalAfterHalfTheMemoryLimitIsTheMemoryLimit() {
        let process = process(memoryLimitMB: 2048)
        // 1.1 GB, as the 3,000,000-row file reached under 2,048 MB before the runtime aborted.
        let memory = process.classify(
            status: SIGABRT, usage: usage(maximumResidentKB: 1_104_768), timedOut: false, output: [])
        #expect(memory == .failure(.memoryLimit(megabytes: 2048)))
        #expect(
            process.classify(status: SIGKILL, usage: usage(maximumResidentKB: 1_048_576), timedOut: false, output: [])
                == .failure(.memoryLimit(megabytes: 2048)))
        #expect(
            process.classify(status: SIGABRT, usage: usage(maximumResidentKB: 1_048_575), timedOut: false, output: [])
                == .failure(.crashed(signal: SIGABRT)))
    }

    @Test func theTimeLimitWinsOverTheSignalThatStoppedTheChild() {
        let process = process(maxMinutes: 30)
        #expect(
            process.classify(status: SIGKILL, usage: usage(maximumResidentKB: 2_000_000), timedOut: true, output: [])
                == .failure(.timeLimit(minutes: 30)))
        #expect(
            process.classify(status: SIGTERM, usage: rusage(), timedOut: true, output: [])
                == .failure(.timeLimit(minutes: 30)))
    }

    @Test func aChildThatFinishedAsItsTimeRanOutKeepsItsOutcome() {
        let process = process(maxMinutes: 30)
        let finished = AccountOutcome(account: "north", status: .success, push: "pushed")
        let output = Array((AccountChild.resultLine(finished) + "\n").utf8)
        #expect(process.classify(status: 0, usage: rusage(), timedOut: true, output: output) == .success(finished))
    }

    @Test func theLastLineOfAChildThatExitedIsItsOutcome() throws {
        let process = process()
        var expected = AccountOutcome(account: "north", status: .noPermission, push: "failed: the token was rejected")
        expected.assets = 3
        let output = Array(("a stray line\n" + AccountChild.resultLine(expected) + "\n").utf8)
        #expect(process.classify(status: 0, usage: rusage(), timedOut: false, output: output) == .success(expected))
        #expect(
            process.classify(status: 75 << 8, usage: rusage(), timedOut: false, output: Array("{\"account\"".utf8))
                == .failure(.noResult(status: 75)))
    }
}
