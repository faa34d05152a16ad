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
