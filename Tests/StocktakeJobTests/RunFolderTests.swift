import Foundation
import StocktakeJob
import Testing

@Suite struct RunFolderTests {
    /// 2026-11-23 02:15:00 UTC.
    private let start = Date(timeIntervalSince1970: 1_795_400_100)

    @Test func runIDIsTheStartTimeInUTC() throws {
        let root = TemporaryStateRoot()
        let run = try root.state().newRun(startedAt: start.addingTimeInterval(0.75))
        #expect(run.id == "20261123T021500Z")
        #expect(run.path == root.path + "/state/vt-nis/runs/20261123T021500Z")
        #expect(run.path(of: "cleaned.csv") == root.path + "/state/vt-nis/runs/20261123T021500Z/cleaned.csv")
        #expect(TemporaryStateRoot.mode(of: run.path) == 0o700)
    }

    @Test func runsOfTheSameSecondNeverCollide() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        let ids = try (0..<3).map { _ in try state.newRun(startedAt: start).id }
        #expect(ids == ["20261123T021500Z", "20261123T021500Z-2", "20261123T021500Z-3"])
        #expect(try state.runs().map(\.id) == ids)
    }

    @Test func runsSortByTimeThenSequence() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        var created: [String] = []
        for _ in 0..<10 { created.append(try state.newRun(startedAt: start).id) }
        created.append(try state.newRun(startedAt: start.addingTimeInterval(1)).id)
        created.append(try state.newRun(startedAt: start.addingTimeInterval(-86_400)).id)
        #expect(created[9] == "20261123T021500Z-10")
        let expected =
            ["20261122T021500Z", "20261123T021500Z"] + (2...10).map { "20261123T021500Z-\($0)" } + ["20261123T021501Z"]
        #expect(try state.runs().map(\.id) == expected)
    }

    @Test func foldersThatAreNotRunsAreLeftOut() throws {
        let root = TemporaryStateRoot()
        let state = root.state()
        let run = try state.newRun(startedAt: start)
        for name in ["notes", "20261123T021500Z-0", ".20261123T021500Z", "20261123X021500Z"] {
            #expect(mkdir(state.runsPath + "/" + name, 0o755) == 0)
        }
        #expect(FileManager.default.createFile(atPath: state.runsPath + "/20261124T000000Z", contents: nil))
        #expect(try state.runs() == [run])
    }

    @Test func noRunsYet() throws {
        let root = TemporaryStateRoot()
        #expect(try root.state().runs() == [])
        #expect(root.state().latest == nil)
    }
}
