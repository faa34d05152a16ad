import Foundation
import Testing

@testable import stocktake_bench

/// The start floor times the measured program's `--version`, and refuses a program that fails it.
struct StartFloorTests {
    let runner = BenchRunner()

    /// A shell script that appends one line to `counter` each time it is run with `--version`.
    func program(exitingWith status: Int, counter: String) throws -> String {
        let path = runner.path("fake-stocktake")
        let script = """
            #!/bin/sh
            [ "$1" = "--version" ] || exit 64
            echo started >> '\(counter)'
            echo 'stocktake 0.0.0'
            exit \(status)

            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    @Test func timesEachStartAfterAFirstOneThatWarmsTheCache() throws {
        let counter = runner.path("starts")
        let program = try program(exitingWith: 0, counter: counter)
        let floor = try StartFloor.measure(program, runs: 3, environment: [:], logs: runner.path("logs"))
        #expect(floor.runs == 3)
        #expect(floor.seconds > 0 && floor.seconds < 5)
        let starts = try String(contentsOfFile: counter, encoding: .utf8).split(separator: "\n")
        #expect(starts.count == 4, "one start to warm the page cache, then the three timed")
        #expect(try String(contentsOfFile: runner.path("logs/stdout"), encoding: .utf8) == "stocktake 0.0.0\n")
    }

    @Test func aProgramThatFailsItsVersionIsRefusedByName() throws {
        let program = try program(exitingWith: 3, counter: runner.path("starts"))
        #expect(throws: BenchError.programFailed(program: program + " --version", outcome: .exited(3), log: "")) {
            try StartFloor.measure(program, runs: 3, environment: [:], logs: runner.path("logs"))
        }
    }
}
