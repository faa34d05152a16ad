import Foundation
import Testing

@testable import StocktakeCore

@Suite("PieceWriter: several files written at once, taking their names in order")
struct PieceWriterTests {
    /// What the fake files did, in order, from all threads: "open 1", "write 1.0", "close 1", "commit 1".
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [String] = []
        func add(_ event: String) { lock.withLock { events.append(event) } }
        var all: [String] { lock.withLock { events } }
        var commits: [String] { all.filter { $0.hasPrefix("commit") } }
    }

    /// A file of `pieceCount` pieces that logs each step and fails at `failing` (such as "write 1.2") with a
    /// `cannotWrite` error naming it.
    final class FakeFile: PieceFile, @unchecked Sendable {
        let number: Int
        let pieceCount: Int
        let log: Log
        let failing: String?

        init(_ number: Int, pieces: Int, log: Log, failing: String? = nil) {
            self.number = number
            pieceCount = pieces
            self.log = log
            self.failing = failing
        }

        static func error(_ number: Int) -> StocktakeError {
            .cannotWrite(path: "file\(number)", reason: "the disk is full")
        }

        private func step(_ event: String) throws(StocktakeError) {
            log.add(event)
            if event == failing { throw Self.error(number) }
        }

        func prepare() {}
        func make(piece index: Int) {}
        func open() throws(StocktakeError) { try step("open \(number)") }
        func write(piece index: Int) throws(StocktakeError) { try step("write \(number).\(index)") }
        func close() throws(StocktakeError) { try step("close \(number)") }
        func commit() throws(StocktakeError) { try step("commit \(number)") }
    }

    /// The jobs of `files`, the last file's first, then the others' from the last file back.
    static func reversedJobs(_ files: [any PieceFile]) -> [PieceWriter.Job] {
        files.indices.reversed().flatMap { file in
            (0..<files[file].pieceCount).map { PieceWriter.Job(file: file, piece: $0) }
        }
    }

    @Test(arguments: [1, 2, 4])
    func filesTakeTheirNamesInOrderWhicheverIsCompleteFirst(threads: Int) throws {
        let log = Log()
        let files = (0..<3).map { FakeFile($0, pieces: 3, log: log) }
        try PieceWriter.write(files, jobs: Self.reversedJobs(files), threads: threads)
        #expect(log.commits == ["commit 0", "commit 1", "commit 2"])
        for file in 0..<3 {
            let own = log.all.filter { $0.hasSuffix(" \(file)") || $0.contains(" \(file).") }
            #expect(
                own == [
                    "open \(file)", "write \(file).0", "write \(file).1", "write \(file).2", "close \(file)",
                    "commit \(file)",
                ])
        }
    }

    /// A file complete while jobs are left is flushing already; its commit, which waits for the flush, comes once no
    /// job is left, so that the worker goes on making pieces meanwhile.
    @Test func filesAreCommittedOnceEveryJobIsTaken() throws {
        let log = Log()
        let files = (0..<3).map { FakeFile($0, pieces: 2, log: log) }
        try PieceWriter.write(files, threads: 1)
        let events = log.all
        let lastClose = try #require(events.lastIndex(of: "close 2"))
        let firstCommit = try #require(events.firstIndex(of: "commit 0"))
        #expect(lastClose < firstCommit, "\(events)")
        #expect(log.commits == ["commit 0", "commit 1", "commit 2"])
    }

    @Test(arguments: [1, 2])
    func aFailureCommitsTheFilesBeforeItAndAbandonsTheFilesAfterIt(threads: Int) {
        let log = Log()
        let files = [
            FakeFile(0, pieces: 2, log: log), FakeFile(1, pieces: 3, log: log, failing: "write 1.1"),
            FakeFile(2, pieces: 1, log: log),
        ]
        #expect(throws: FakeFile.error(1)) {
            try PieceWriter.write(files, jobs: Self.reversedJobs(files), threads: threads)
        }
        // File 2 was complete first, but never takes its name; file 0 does.
        #expect(log.all.contains("close 2"))
        #expect(log.commits == ["commit 0"])
        #expect(!log.all.contains("write 1.2"))
    }

    /// Handed a `PendingOutputs`, the writer commits nothing: the files wait in it, closed (flushing), in order.
    @Test(arguments: [1, 2])
    func withPendingOutputsTheFilesAreClosedAndLeftForItToCommit(threads: Int) throws {
        let log = Log()
        let files = (0..<3).map { FakeFile($0, pieces: 2, log: log) }
        let pending = PendingOutputs()
        try PieceWriter.write(files, jobs: Self.reversedJobs(files), threads: threads, deferringTo: pending)
        #expect(log.commits == [])
        #expect(log.all.filter { $0.hasPrefix("close") }.sorted() == ["close 0", "close 1", "close 2"])
        try pending.commit()
        #expect(log.commits == ["commit 0", "commit 1", "commit 2"])
    }

    /// A failure with a `PendingOutputs`: the files before the failing one are handed to it (they would have been
    /// committed), the ones after it are not.
    @Test(arguments: [1, 2])
    func aFailureWithPendingOutputsHandsOnTheFilesBeforeIt(threads: Int) throws {
        let log = Log()
        let files = [
            FakeFile(0, pieces: 2, log: log), FakeFile(1, pieces: 3, log: log, failing: "write 1.1"),
            FakeFile(2, pieces: 1, log: log),
        ]
        let pending = PendingOutputs()
        #expect(throws: FakeFile.error(1)) {
            try PieceWriter.write(files, jobs: Self.reversedJobs(files), threads: threads, deferringTo: pending)
        }
        #expect(log.commits == [])
        try pending.commit()
        #expect(log.commits == ["commit 0"])
    }

    @Test func theErrorIsThatOfTheFirstFailingFileInOrder() {
        let log = Log()
        let files = [
            FakeFile(0, pieces: 1, log: log), FakeFile(1, pieces: 1, log: log, failing: "commit 1"),
            FakeFile(2, pieces: 1, log: log, failing: "open 2"),
        ]
        #expect(throws: FakeFile.error(1)) {
            try PieceWriter.write(files, jobs: Self.reversedJobs(files), threads: 1)
        }
        #expect(log.commits == ["commit 0", "commit 1"])
    }

    @Test func realFilesWrittenTogetherHoldWhatEachWouldAlone() throws {
        let folder = TemporaryFolder()
        let rows = TableFile.rowsPerPart * 3 + 5
        let row: @Sendable (Int, inout ByteBuffer) -> Void = { CSVWriter.appendRow([String($0), "x"], to: &$1) }
        let table = TableFile(header: ["n", "x"], rowCount: rows, row: row, to: folder.path("table.csv"))
        let columns = [WorkbookWriter.Column("n", .number)]
        let workbookRow: @Sendable (Int, inout WorksheetRow) -> Void = { $1.number(Double($0)) }
        let workbook = WorkbookWriter(
            sheet: "n", columns: columns, rowCount: rows,
            to: .file(path: folder.path("n.xlsx"), synchronizingFolder: false)
        ) { WorkbookWriter.Contents(row: workbookRow) }
        let files: [any PieceFile] = [table, workbook]
        try PieceWriter.write(files, jobs: Self.reversedJobs(files) + [PieceWriter.Job(file: 1, piece: -1)])
        #expect(
            folder.read("table.csv")
                == String(decoding: TableFile.bytes(header: ["n", "x"], rowCount: rows, row: row), as: UTF8.self))
        let expected = WorkbookWriter.bytes(sheet: "n", columns: columns, rowCount: rows, row: workbookRow)
        #expect(FileManager.default.contents(atPath: folder.path("n.xlsx")).map(Array.init) == expected)
        #expect(folder.list().sorted() == ["n.xlsx", "table.csv"])
    }
}
