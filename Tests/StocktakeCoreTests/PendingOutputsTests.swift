import Foundation
import Testing

@testable import StocktakeCore

@Suite("PendingOutputs: written files that take their names later, in order")
struct PendingOutputsTests {
    typealias Log = PieceWriterTests.Log
    typealias FakeFile = PieceWriterTests.FakeFile

    @Test func filesTakeTheirNamesInTheOrderTheyWereAddedAndOnlyOnce() throws {
        let log = Log()
        let pending = PendingOutputs()
        pending.add([FakeFile(0, pieces: 1, log: log), FakeFile(1, pieces: 1, log: log)] as [any PieceFile])
        pending.add([FakeFile(2, pieces: 1, log: log)] as [any PieceFile])
        #expect(!pending.isEmpty)
        #expect(log.commits == [])
        try pending.commit()
        #expect(log.commits == ["commit 0", "commit 1", "commit 2"])
        #expect(pending.isEmpty)
        try pending.commit()
        #expect(log.commits == ["commit 0", "commit 1", "commit 2"], "a second commit has nothing left to do")
    }

    @Test func aFileThatFailsStopsTheFilesAfterItAndKeepsTheOnesBefore() throws {
        let log = Log()
        let pending = PendingOutputs()
        pending.add(
            [
                FakeFile(0, pieces: 1, log: log), FakeFile(1, pieces: 1, log: log, failing: "commit 1"),
                FakeFile(2, pieces: 1, log: log),
            ] as [any PieceFile])
        #expect(throws: FakeFile.error(1)) { try pending.commit() }
        #expect(log.commits == ["commit 0", "commit 1"])
        #expect(pending.isEmpty, "nothing is left waiting after a failure")
        try pending.commit()
        #expect(log.commits == ["commit 0", "commit 1"])
    }

    /// Real tables: written, they wait under their temporary names until the commit; dropped uncommitted, they leave
    /// nothing behind, and the file of an earlier run under the same name is untouched.
    @Test func realTablesWaitUnderTemporaryNamesAndVanishWhenDropped() throws {
        let folder = TemporaryFolder()
        folder.write("old\n", to: "b.csv")
        let row: @Sendable (Int, inout ByteBuffer) -> Void = { CSVWriter.appendRow([String($0)], to: &$1) }
        func table(_ name: String) -> TableFile {
            TableFile(header: ["n"], rowCount: 3, row: row, to: folder.path(name))
        }
        var pending: PendingOutputs? = PendingOutputs()
        try PieceWriter.write([table("a.csv")], deferringTo: pending)
        try PieceWriter.write([table("b.csv")], deferringTo: pending)
        #expect(folder.list().filter { !$0.hasPrefix(".") }.sorted() == ["b.csv"])
        #expect(folder.list().filter { $0.hasSuffix(".partial") }.count == 2)
        #expect(folder.read("b.csv") == "old\n")
        pending = nil
        #expect(folder.list().sorted() == ["b.csv"], "the temporary files are removed")
        #expect(folder.read("b.csv") == "old\n")

        let kept = PendingOutputs()
        try PieceWriter.write([table("a.csv"), table("b.csv")], deferringTo: kept)
        try kept.commit()
        #expect(folder.list().sorted() == ["a.csv", "b.csv"])
        #expect(folder.read("b.csv") == "n\r\n0\r\n1\r\n2\r\n")
    }
}
