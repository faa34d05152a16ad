import Foundation
import Testing

@testable import stocktake_bench

/// The cat floor reads every byte of every input.
struct PageCacheFloorTests {
    let runner = BenchRunner()

    @Test func readsEveryByte() throws {
        let first = runner.path("a.csv")
        let second = runner.path("b.csv")
        try Data(repeating: 65, count: 3 << 20 | 5).write(to: URL(fileURLWithPath: first))
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: second))
        let floor = try PageCacheFloor.measure([first, second])
        #expect(floor.bytes == (3 << 20 | 5) + 2)
        #expect(floor.seconds > 0 && floor.seconds < 5)
    }

    @Test func aMissingFileIsNamed() {
        #expect(throws: BenchError.cannotRead(path: runner.path("none.csv"), reason: "no such file or directory")) {
            try PageCacheFloor.measure([runner.path("none.csv")])
        }
    }
}
