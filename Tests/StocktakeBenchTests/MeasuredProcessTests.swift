import Foundation
import Testing

@testable import stocktake_bench

/// A measured child: how it ended, its wall and CPU time, its peak memory, its output and environment.
struct MeasuredProcessTests {
    let runner = BenchRunner()

    func process(_ script: String, environment: [String: String] = [:]) -> MeasuredProcess {
        MeasuredProcess(
            program: "/bin/sh", arguments: ["-c", script], extraEnvironment: environment,
            standardOutput: runner.path("out"), standardError: runner.path("err"))
    }

    @Test func reportsTheExitStatusOutputAndEnvironment() throws {
        let (outcome, measurement) = try process(
            #"echo "threads $STOCKTAKE_THREADS"; echo oops >&2; sleep 0.2; exit 3"#,
            environment: ["STOCKTAKE_THREADS": "2"]
        ).run()
        #expect(outcome == .exited(3))
        #expect(!outcome.succeeded)
        #expect(outcome.description == "exited with status 3")
        #expect(measurement.wallSeconds >= 0.2 && measurement.wallSeconds < 5)
        #expect(try String(contentsOfFile: runner.path("out"), encoding: .utf8) == "threads 2\n")
        #expect(try String(contentsOfFile: runner.path("err"), encoding: .utf8) == "oops\n")
    }

    @Test func measuresCPUAndThePeakMemoryOfDescendants() throws {
        // A grandchild touches 200 MB and burns CPU; the shell waits for it, so wait4 counts it.
        let (outcome, measurement) = try process(
            "python3 -c 'b = bytearray(200_000_000); n = sum(range(3_000_000))'; true"
        ).run()
        #expect(outcome == .exited(0))
        #expect(measurement.peakResidentBytes >= 200_000_000)
        #expect(measurement.peakResidentBytes < 1_000_000_000)
        #expect(measurement.cpuSeconds > 0.01)
        #expect(measurement.cpuSeconds == measurement.userSeconds + measurement.systemSeconds)
        // 200 MB is 48,829 pages of 4 KB, each written for the first time: fewer faults only where the kernel gives
        // huge pages (not for a small program's heap unless asked).
        #expect(measurement.pageFaults >= 40_000, "\(measurement.pageFaults) faults for 200 MB")
    }

    /// Faults count what a run touches: a child that touches twice the memory faults about twice as often.
    @Test func countsThePageFaultsOfDescendants() throws {
        func faults(_ megabytes: Int) throws -> Int {
            let (outcome, measurement) = try process(
                "python3 -c 'b = bytearray(\(megabytes) * 1_000_000)'; true"
            ).run()
            #expect(outcome == .exited(0))
            return measurement.pageFaults
        }
        let small = try faults(50)
        let large = try faults(250)
        #expect(large - small >= 40_000, "\(small) faults for 50 MB, \(large) for 250 MB")
        #expect(large - small < 60_000, "\(small) faults for 50 MB, \(large) for 250 MB")
    }

    /// A program still open for writing cannot be executed (ETXTBSY); once it is closed, the start that was
    /// waiting succeeds, and the time measured is the run's, not the wait's.
    @Test func aProgramStillOpenForWritingIsStartedOnceClosed() throws {
        let file = runner.path("busy")
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        try #require(descriptor >= 0)
        let text = Array("#!/bin/sh\nexit 4\n".utf8)
        #expect(text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == text.count)
        let closing = Thread {
            usleep(300_000)
            close(descriptor)
        }
        closing.start()
        let process = MeasuredProcess(
            program: file, arguments: [], standardOutput: runner.path("out"), standardError: runner.path("err"))
        let (outcome, measurement) = try process.run()
        #expect(outcome == .exited(4))
        #expect(measurement.wallSeconds < 0.25, "\(measurement.wallSeconds) s: the wait was timed")
    }

    /// A program that stays open for writing is given up after the attempts (about a second), with exec's reason.
    @Test func aProgramThatStaysOpenForWritingCannotStart() throws {
        let file = runner.path("busy")
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let text = Array("#!/bin/sh\nexit 0\n".utf8)
        #expect(text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == text.count)
        let process = MeasuredProcess(
            program: file, arguments: [], standardOutput: runner.path("out"), standardError: runner.path("err"))
        #expect(throws: BenchError.cannotStart(program: file, reason: "Text file busy")) { try process.run() }
        #expect(
            BenchError.cannotStart(program: file, reason: "Text file busy").description
                == "\(file) cannot be started: Text file busy.")
    }

    @Test func aSignalEndsIt() throws {
        let (outcome, _) = try process("kill -9 $$").run()
        #expect(outcome == .signaled(9))
        #expect(outcome.description == "was killed by signal 9")
    }

    @Test func aMissingProgramCannotStart() throws {
        let process = MeasuredProcess(
            program: "/nonexistent/stocktake", arguments: [], standardOutput: runner.path("out"),
            standardError: runner.path("err"))
        #expect(
            throws: BenchError.cannotStart(program: "/nonexistent/stocktake", reason: "No such file or directory")
        ) { try process.run() }
    }
}
