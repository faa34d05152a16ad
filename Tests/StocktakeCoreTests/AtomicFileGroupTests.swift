import Foundation
import Testing

@testable import StocktakeCore

struct AtomicFileGroupTests {
    let folder = TemporaryFolder()

    @Test func theFilesOfAGroupTakeTheirNamesWholeAndLeaveNoPartialFile() throws {
        folder.write(String(repeating: "old report\n", count: 1000), to: "report.html")
        let group = AtomicFileGroup(folder: folder.path(""))
        try group.write("<html>new</html>\n", to: folder.path("report.html"))
        try group.write("summary\n", to: folder.path("summary.txt"))
        let writer = try AtomicFileWriter(path: folder.path("ledger.csv"))
        try writer.write("id,code\r\n")
        try group.add(writer)
        // Nothing has its name before the commit: the old report is still whole.
        #expect(folder.read("report.html") == String(repeating: "old report\n", count: 1000))
        #expect(folder.list().filter { !$0.hasPrefix(".") } == ["report.html"])
        try group.commit()
        #expect(folder.read("report.html") == "<html>new</html>\n")
        #expect(folder.read("summary.txt") == "summary\n")
        #expect(folder.read("ledger.csv") == "id,code\r\n")
        #expect(folder.list() == ["ledger.csv", "report.html", "summary.txt"])
    }

    @Test func aFileThatCannotTakeItsNameStopsTheFilesAfterItAndLeavesNoPartialFile() throws {
        folder.write("old summary\n", to: "summary.txt")
        // A folder in the way of the second file: rename(2) refuses to put a file over it.
        folder.write("x", to: "report.html/keep")
        let group = AtomicFileGroup(folder: folder.path(""))
        try group.write("ledger\n", to: folder.path("ledger.csv"))
        try group.write("report\n", to: folder.path("report.html"))
        try group.write("new summary\n", to: folder.path("summary.txt"))
        let error = #expect(throws: StocktakeError.self) { try group.commit() }
        #expect(error == .cannotWrite(path: folder.path("report.html"), reason: "is a directory"))
        // The file before it has its name; the one after it never got it, and its old version is whole.
        #expect(folder.read("ledger.csv") == "ledger\n")
        #expect(folder.read("summary.txt") == "old summary\n")
        #expect(folder.list() == ["ledger.csv", "report.html", "summary.txt"])
    }

    @Test(.enabled(if: SmallDisk.canMount, "mounting a small tmpfs is not permitted here"))
    func aFullDiskWhileWritingOneFileLeavesEveryFileOfTheGroupAsItWas() throws {
        let disk = try SmallDisk(at: folder.path("disk"))
        defer { disk.unmount() }
        let report = (disk.path as NSString).appendingPathComponent("report.html")
        let summary = (disk.path as NSString).appendingPathComponent("summary.txt")
        try AtomicFile.write("previous report\n", to: report)
        try AtomicFile.write("previous summary\n", to: summary)
        let group = AtomicFileGroup(folder: disk.path)
        try group.write("new report\n", to: report)
        let error = #expect(throws: StocktakeError.self) {
            try group.write([UInt8](repeating: 65, count: 256 * 1024), to: summary)
        }
        #expect(error == .cannotWrite(path: summary, reason: "the disk is full"))
        // The group is abandoned whole: the report written before the failure does not take its name either.
        #expect(try String(contentsOfFile: report, encoding: .utf8) == "previous report\n")
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == "previous summary\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted() == ["report.html", "summary.txt"])
    }
}

extension AtomicFileGroupTests {
    @Test func aFileTheDiskFailsToFlushKeepsEveryFileOfTheGroupFromItsName() throws {
        folder.write("old report\n", to: "report.html")
        folder.write("old summary\n", to: "summary.txt")
        // The disk fails the flush of the second file only (found by the path its descriptor has open).
        let group = AtomicFileGroup(folder: folder.path("")) { descriptor in
            let open = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")) ?? ""
            return open.contains(".summary.txt.") ? EIO : AtomicFileWriter.synchronize(descriptor)
        }
        try group.write("new report\n", to: folder.path("report.html"))
        try group.write("new summary\n", to: folder.path("summary.txt"))
        try group.write("ledger\n", to: folder.path("ledger.csv"))
        let error = #expect(throws: StocktakeError.self) { try group.commit() }
        #expect(error == .cannotWrite(path: folder.path("summary.txt"), reason: "input/output error"))
        // The report flushed well, yet it keeps its old version: no file of the group takes its name.
        #expect(folder.read("report.html") == "old report\n")
        #expect(folder.read("summary.txt") == "old summary\n")
        #expect(folder.list() == ["report.html", "summary.txt"])
    }
}
