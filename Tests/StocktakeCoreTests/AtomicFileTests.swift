import Foundation
import Testing

@testable import StocktakeCore

#if canImport(Glibc)
    import Glibc
#endif

struct AtomicFileTests {
    let folder = TemporaryFolder()

    @Test func writesANewFile() throws {
        try AtomicFile.write("a,b\r\n1,2\r\n", to: folder.path("out.csv"))
        #expect(folder.read("out.csv") == "a,b\r\n1,2\r\n")
        #expect(folder.list() == ["out.csv"])
    }

    @Test func writesBytes() throws {
        try AtomicFile.write([0, 1, 2, 255], to: folder.path("out.bin"))
        #expect(FileManager.default.contents(atPath: folder.path("out.bin")) == Data([0, 1, 2, 255]))
    }

    @Test func replacesAnExistingFileWhole() throws {
        folder.write(String(repeating: "old line\n", count: 1000), to: "out.csv")
        try AtomicFile.write("new\n", to: folder.path("out.csv"))
        #expect(folder.read("out.csv") == "new\n")
        #expect(folder.list() == ["out.csv"])
    }

    @Test func replacingKeepsReadersOfTheOldFileWhole() throws {
        let path = folder.write("old\n", to: "out.csv")
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        try AtomicFile.write("new\n", to: path)
        #expect(String(decoding: handle.readDataToEndOfFile(), as: UTF8.self) == "old\n")
        #expect(folder.read("out.csv") == "new\n")
    }

    @Test func aCommitLeavingTheFolderToTheCallerStillReplacesTheFileWholeAndLeavesNoPartialFile() throws {
        folder.write(String(repeating: "old line\n", count: 1000), to: "out.csv")
        try AtomicFile.write("new\n", to: folder.path("out.csv"), synchronizingFolder: false)
        let writer = try AtomicFileWriter(path: folder.path("table.csv"))
        try writer.write("a,b\r\n")
        try writer.commit(synchronizingFolder: false)
        #expect(folder.read("out.csv") == "new\n")
        #expect(folder.read("table.csv") == "a,b\r\n")
        #expect(folder.list() == ["out.csv", "table.csv"])
    }

    /// A large file is sent on to disk range after range while it is written, every `writebackSize` bytes, from
    /// the start and without gaps; a small one never. The file holds its bytes either way.
    @Test func aLargeFileIsSentToDiskWhileItIsWritten() throws {
        let writer = try AtomicFileWriter(path: folder.path("large.csv"))
        var ranges: [Range<Int>] = []
        writer.startWriteback = { _, offset, length in ranges.append(offset..<(offset + length)) }
        let block = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var expected: [UInt8] = []
        for _ in 0..<70 {
            try writer.write(block)
            expected += block
        }
        try writer.write(Array("a small tail".utf8))
        expected += Array("a small tail".utf8)
        try writer.commit()
        let size = AtomicFileWriter.writebackSize
        #expect(ranges.count == expected.count / size)
        #expect(ranges.first?.lowerBound == 0)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(ranges.allSatisfy { $0.count >= size && $0.count < size + block.count })
        #expect(FileManager.default.contents(atPath: folder.path("large.csv")) == Data(expected))

        let small = try AtomicFileWriter(path: folder.path("small.csv"))
        var calls = 0
        small.startWriteback = { _, _, _ in calls += 1 }
        for _ in 0..<20 { try small.write(Array(repeating: 65, count: 100_000)) }
        try small.commit()
        #expect(calls == 0)
        #expect(FileManager.default.contents(atPath: folder.path("small.csv"))?.count == 2_000_000)

        // With the system's call (sync_file_range), not a recorder: the file is the same.
        let real = try AtomicFileWriter(path: folder.path("real.csv"))
        for _ in 0..<70 { try real.write(block) }
        try real.commit()
        #expect(
            FileManager.default.contents(atPath: folder.path("real.csv")) == Data(expected.prefix(70 * block.count)))
    }

    @Test func writesAnEmptyFile() throws {
        try AtomicFile.write("", to: folder.path("empty.txt"))
        #expect(folder.read("empty.txt") == "")
    }

    @Test func missingFolder() throws {
        let path = folder.path("no/such/folder/out.csv")
        let error = #expect(throws: StocktakeError.self) { try AtomicFile.write("x", to: path) }
        #expect(error == .cannotWrite(path: path, reason: "the folder does not exist"))
        #expect(error?.exitStatus == .cannotCreate)
    }

    @Test func folderThatIsAFile() throws {
        folder.write("x", to: "file.txt")
        let path = folder.path("file.txt/out.csv")
        let error = #expect(throws: StocktakeError.self) { try AtomicFile.write("x", to: path) }
        #expect(error == .cannotWrite(path: path, reason: "not a directory"))
        #expect(folder.list() == ["file.txt"])
    }

    @Test(.enabled(if: getuid() != 0, "root writes into read-only folders, so the permission bits prove nothing"))
    func readOnlyFolder() throws {
        let path = folder.write("old\n", to: "locked/out.csv")
        chmod(folder.path("locked"), 0o555)
        defer { chmod(folder.path("locked"), 0o755) }
        let error = #expect(throws: StocktakeError.self) { try AtomicFile.write("new\n", to: path) }
        #expect(error == .cannotWrite(path: path, reason: "permission denied"))
        #expect(folder.read("locked/out.csv") == "old\n")
    }

    @Test(.enabled(if: SmallDisk.canMount, "mounting a small tmpfs is not permitted here"))
    func fullDiskLeavesThePreviousFile() throws {
        let disk = try SmallDisk(at: folder.path("disk"))
        defer { disk.unmount() }
        let path = (disk.path as NSString).appendingPathComponent("cleaned.csv")
        try AtomicFile.write("previous\n", to: path)
        let error = #expect(throws: StocktakeError.self) {
            try AtomicFile.write([UInt8](repeating: 65, count: 256 * 1024), to: path)
        }
        #expect(error == .cannotWrite(path: path, reason: "the disk is full"))
        #expect(error?.exitStatus == .cannotCreate)
        #expect(FileManager.default.contents(atPath: path) == Data("previous\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["cleaned.csv"])
    }

    @Test func theTemporaryFileIsHiddenPrivateAndRandomlyNamedUntilTheCommit() throws {
        let path = folder.path("central.csv")
        let file = try AtomicFileWriter(path: path, mode: 0o640)
        try file.write("a,b\n")
        let name = String(file.temporaryPath.dropFirst(folder.path.count + 1))
        #expect(file.temporaryPath == folder.path(name))
        #expect(PartialFileName.writer(of: name, for: "central.csv") == getpid())
        #expect(folder.list() == [name])
        #expect(mode(of: file.temporaryPath) == 0o600)
        try file.commit()
        #expect(folder.list() == ["central.csv"])
        #expect(mode(of: path) == 0o640)
        #expect(folder.read("central.csv") == "a,b\n")
    }

    @Test func aGivenModeIsExactWhateverTheUmask() throws {
        try AtomicFile.write("x\n", to: folder.path("shared.csv"), mode: 0o666)
        #expect(mode(of: folder.path("shared.csv")) == 0o666)
        try AtomicFile.write("x\n", to: folder.path("private.csv"), mode: 0o600)
        #expect(mode(of: folder.path("private.csv")) == 0o600)
    }

    @Test func withoutAModeTheFileIsMadeLikeAnyNewFile() throws {
        try AtomicFile.write("x\n", to: folder.path("out.csv"))
        // 0644 less the umask (another test may change the umask for a moment, so only the bounds are certain).
        let bits = try #require(mode(of: folder.path("out.csv")))
        #expect(bits & 0o600 == 0o600)
        #expect(bits & ~0o644 == 0)
    }

    @Test func aLinkAtEveryTemporaryNameIsNeitherFollowedNorReplaced() throws {
        let victim = folder.write("root:secret\n", to: "victim")
        chmod(victim, 0o600)
        let names = PartialFileName(random: { 0xdead })
        let planted = names.make(for: "out.csv")
        #expect(symlink(victim, folder.path(planted)) == 0)
        let path = folder.path("out.csv")
        let error = #expect(throws: StocktakeError.self) {
            _ = try AtomicFileWriter(path: path, mode: 0o644, names: names)
        }
        #expect(
            error?.description
                == "\(path): cannot write it: 5 random temporary names in a row were already taken in its folder, "
                + "which only happens when someone plants files there (look for .out.csv.stocktake-*.partial). "
                + "Check that the folder exists, is writable and the disk is not full.")
        #expect(folder.read("victim") == "root:secret\n")
        #expect(mode(of: victim) == 0o600)
        #expect(folder.list() == [planted, "victim"])
    }

    @Test func aWriterDroppedBeforeTheCommitLeavesNothing() throws {
        folder.write("old\n", to: "out.csv")
        do {
            let file = try AtomicFileWriter(path: folder.path("out.csv"))
            try file.write("new\n")
            #expect(folder.list().count == 2)
        }
        #expect(folder.list() == ["out.csv"])
        #expect(folder.read("out.csv") == "old\n")
    }

    @Test func stalePartialsOfDeadWritersAreRemovedAndNothingElse() throws {
        let names = PartialFileName()
        // No process has an id above the kernel's limit (at most 4194304), so this writer is surely gone.
        let gone: pid_t = 2_000_000_000
        let stale = [names.make(for: "out.csv", pid: gone), names.make(for: "out.csv", pid: gone)]
        for name in stale { folder.write("half", to: name) }
        let ours = names.make(for: "out.csv")
        folder.write("being written", to: ours)
        let link = names.make(for: "out.csv", pid: gone)
        let victim = folder.write("keep\n", to: "victim")
        #expect(symlink(victim, folder.path(link)) == 0)
        let other = names.make(for: "other.csv", pid: gone)
        folder.write("half", to: other)
        let legacy = "out.csv.partial-\(gone)"
        folder.write("half", to: legacy)

        #expect(AtomicFile.removeStalePartials(of: folder.path("out.csv")).sorted() == stale.sorted())

        #expect(folder.list() == [ours, link, other, legacy, "victim"].sorted())
        #expect(folder.read("victim") == "keep\n")
        #expect(AtomicFile.removeStalePartials(of: folder.path("out.csv")) == [])
        #expect(AtomicFile.removeStalePartials(of: folder.path("missing/out.csv")) == [])
    }

    private func mode(of path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
    }

    @Test func makeDirectoryCreatesParents() throws {
        let path = folder.path("a/b/c")
        try AtomicFile.makeDirectory(path)
        try AtomicFile.makeDirectory(path)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test func makeDirectoryUnderAFile() throws {
        folder.write("x", to: "file.txt")
        let path = folder.path("file.txt/out")
        let error = #expect(throws: StocktakeError.self) { try AtomicFile.makeDirectory(path) }
        #expect(error == .cannotWrite(path: path, reason: "not a directory"))
    }
}

/// A 64 KiB tmpfs mounted for a test, to fill up on purpose.
struct SmallDisk {
    let path: String

    /// Whether this process may mount a tmpfs (root outside a restricted container).
    static let canMount: Bool = {
        let probe = NSTemporaryDirectory() + "/stocktake-mount-probe-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard let disk = try? SmallDisk(at: probe) else { return false }
        disk.unmount()
        return true
    }()

    init(at path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard Self.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", path]) else {
            throw CocoaError(.fileWriteNoPermission)
        }
        self.path = path
    }

    func unmount() {
        _ = Self.run("/usr/bin/umount", [path])
    }

    private static func run(_ executable: String, _ arguments: [String]) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: executable) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

extension AtomicFileTests {
    @Test func aSimulatedFullDiskGivesTheRealErrorAndLeavesTheOldFile() throws {
        let path = folder.write("old\n", to: "cleaned.csv")
        let writer = try AtomicFileWriter(path: path)
        try writer.write("new\n")
        let error = writer.abandon(simulating: ENOSPC)
        #expect(error == .cannotWrite(path: path, reason: "the disk is full"))
        #expect(folder.read("cleaned.csv") == "old\n")
        #expect(!FileManager.default.fileExists(atPath: writer.temporaryPath))
    }
}

extension AtomicFileTests {
    @Test func aFileFlushedAheadTakesItsNameAtTheCommitOnly() throws {
        let path = folder.write("old\n", to: "cleaned.csv")
        let writer = try AtomicFileWriter(path: path)
        try writer.write("new\n")
        try writer.startFlushing()
        #expect(folder.read("cleaned.csv") == "old\n")
        try writer.commit(synchronizingFolder: false)
        #expect(folder.read("cleaned.csv") == "new\n")
        #expect(folder.list() == ["cleaned.csv"])
    }

    @Test func aFileFlushedAheadButNeverCommittedLeavesTheOldFileAndNoPartialFile() throws {
        let path = folder.write("old\n", to: "cleaned.csv")
        do {
            let writer = try AtomicFileWriter(path: path)
            try writer.write(String(repeating: "new row\n", count: 10_000))
            try writer.startFlushing()
        }
        #expect(folder.read("cleaned.csv") == "old\n")
        #expect(folder.list() == ["cleaned.csv"])
    }
}

extension AtomicFileTests {
    @Test func aFlushAheadThatTheDiskFailsIsTheCommitsErrorAndLeavesTheOldFile() throws {
        let path = folder.write("old\n", to: "cleaned.csv")
        let writer = try AtomicFileWriter(path: path)
        try writer.write("new\n")
        // Delayed allocation makes a full disk show at the flush, after every write succeeded.
        try writer.startFlushing(synchronizing: { _ in ENOSPC })
        let error = #expect(throws: StocktakeError.self) { try writer.commit(synchronizingFolder: false) }
        #expect(error == .cannotWrite(path: path, reason: "the disk is full"))
        #expect(folder.read("cleaned.csv") == "old\n")
        #expect(folder.list() == ["cleaned.csv"])
    }
}

extension AtomicFileTests {
    @Test func largeWritesGoOutDirectlyAfterWhatIsBufferedInOrder() throws {
        let path = folder.path("table.csv")
        let writer = try AtomicFileWriter(path: path)
        // Buffered, direct (64 KiB and more), buffered, direct right after the last, then buffered again.
        let large = Array(repeating: UInt8(ascii: "b"), count: AtomicFileWriter.directWriteSize)
        let larger = Array(repeating: UInt8(ascii: "d"), count: 3 * AtomicFileWriter.directWriteSize + 1)
        try writer.write("head\n")
        try writer.write(large)
        try writer.write("c")
        try writer.write(larger)
        try writer.write(larger)
        try writer.write("tail\n")
        try writer.commit(synchronizingFolder: false)
        let expected = Array("head\n".utf8) + large + Array("c".utf8) + larger + larger + Array("tail\n".utf8)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == expected)
        #expect(folder.list() == ["table.csv"])
    }
}

extension AtomicFileTests {
    @Test func rawBytesAreWrittenInOrderWithArraysWhetherBufferedOrDirect() throws {
        let path = folder.path("table.csv")
        let writer = try AtomicFileWriter(path: path)
        // Raw bytes from a ByteBuffer, as a table's blocks are written: buffered, direct, empty, then direct right
        // after an array that was buffered.
        var small = ByteBuffer()
        small.append(utf8: "a,b\r\n")
        var large = ByteBuffer()
        large.append(repeating: UInt8(ascii: "x"), count: AtomicFileWriter.directWriteSize + 3)
        try small.withUnsafeBytes { (bytes) throws(StocktakeError) in try writer.write(bytes) }
        try large.withUnsafeBytes { (bytes) throws(StocktakeError) in try writer.write(bytes) }
        try writer.write(UnsafeRawBufferPointer(start: nil, count: 0))
        try writer.write(Array("c".utf8))
        try large.withUnsafeBytes { (bytes) throws(StocktakeError) in try writer.write(bytes) }
        try small.withUnsafeBytes { (bytes) throws(StocktakeError) in try writer.write(bytes) }
        try writer.commit(synchronizingFolder: false)
        let expected = small.bytes + large.bytes + Array("c".utf8) + large.bytes + small.bytes
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == expected)
        #expect(folder.list() == ["table.csv"])
    }
}

extension AtomicFileTests {
    /// Where no thread may be started (the account launcher's warm-up), the flush is made on the calling thread
    /// before `startFlushing` returns; elsewhere on a thread of its own.
    @Test func withoutThreadsTheFlushIsMadeOnTheCallingThread() throws {
        final class FlushThread: @unchecked Sendable {
            var thread: pthread_t?
        }
        for alone in [true, false] {
            let path = folder.path(alone ? "alone.csv" : "threads.csv")
            let writer = try AtomicFileWriter(path: path)
            try writer.write("row\n")
            let flushed = FlushThread()
            let start = {
                try writer.startFlushing(synchronizing: { descriptor in
                    flushed.thread = pthread_self()
                    return fsync(descriptor) == 0 ? 0 : errno
                })
            }
            if alone { try Parallel.withoutThreads(start) } else { try start() }
            if alone { #expect(flushed.thread.map { pthread_equal($0, pthread_self()) != 0 } == true) }
            try writer.commit(synchronizingFolder: false)
            if !alone { #expect(flushed.thread.map { pthread_equal($0, pthread_self()) == 0 } == true) }
            #expect(folder.read(alone ? "alone.csv" : "threads.csv") == "row\n")
        }
    }
}

/// Once its bytes are on disk, a written file's pages leave the page cache (unless the writer keeps them): a night's
/// outputs do not crowd the server's memory. tmpfs keeps every page in memory by nature, so there nothing is checked.
extension AtomicFileTests {
    @Test(.enabled(if: !PageCache.isMemoryOnly(NSTemporaryDirectory()), "tmpfs never drops a file's pages"))
    func aCommittedFileLeavesThePageCache() throws {
        let writer = try AtomicFileWriter(path: folder.path("cleaned.csv"))
        try writer.write(PageCache.sample)
        try writer.commit()
        #expect(try PageCache.residentPages(folder.path("cleaned.csv")) == 0)
        #expect(FileManager.default.contents(atPath: folder.path("cleaned.csv")) == Data(PageCache.sample))
    }

    @Test(.enabled(if: !PageCache.isMemoryOnly(NSTemporaryDirectory()), "tmpfs never drops a file's pages"))
    func aFileFlushedAheadLeavesThePageCacheOnceOnDisk() throws {
        let writer = try AtomicFileWriter(path: folder.path("report.html"))
        try writer.write(PageCache.sample)
        try writer.startFlushing()
        try writer.commit(synchronizingFolder: false)
        #expect(try PageCache.residentPages(folder.path("report.html")) == 0)
        #expect(FileManager.default.contents(atPath: folder.path("report.html")) == Data(PageCache.sample))
    }

    @Test func aFileKeptCachedStaysInThePageCache() throws {
        try AtomicFile.write(PageCache.sample, to: folder.path("central.csv"), keepingCached: true)
        let pages = (PageCache.sample.count + PageCache.pageSize - 1) / PageCache.pageSize
        #expect(try PageCache.residentPages(folder.path("central.csv")) == pages)
    }
}

/// What the page cache holds of a file, read with `mincore` over a mapping that touches nothing.
enum PageCache {
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// A megabyte and a bit of varied bytes: many pages, the last one partly filled.
    static let sample = (0..<(1 << 20) + 1234).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }

    /// How many of the file's pages are in memory.
    static func residentPages(_ path: String) throws -> Int {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return 0 }
        let length = Int(status.st_size)
        guard let mapping = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0), mapping != MAP_FAILED else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        defer { munmap(mapping, length) }
        var resident = [UInt8](repeating: 0, count: (length + pageSize - 1) / pageSize)
        guard mincore(mapping, length, &resident) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return resident.count(where: { $0 & 1 != 0 })
    }

    /// Whether `folder` is on a file system that keeps files in memory only (tmpfs, ramfs): the type of the
    /// deepest mount in /proc/mounts that holds it.
    static func isMemoryOnly(_ folder: String) -> Bool {
        let real = (folder as NSString).resolvingSymlinksInPath
        guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return false }
        var best: (point: String, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 2 else { continue }
            let point = String(fields[1])
            let holds = point == "/" || real == point || real.hasPrefix(point + "/")
            if holds, point.count >= (best?.point.count ?? 0) { best = (point, String(fields[2])) }
        }
        return best.map { ["tmpfs", "ramfs"].contains($0.type) } ?? false
    }
}

extension AtomicFileTests {
    /// A flush the test lets go of when it chooses.
    final class HeldFlush: @unchecked Sendable {
        let released = DispatchSemaphore(value: 0)
        let failure: Int32

        init(failure: Int32 = 0) {
            self.failure = failure
        }

        func synchronize(_ descriptor: Int32) -> Int32 {
            released.wait()
            return failure == 0 ? AtomicFileWriter.synchronize(descriptor) : failure
        }
    }

    /// A file that takes its name before its flush is readable, whole, under that name while the flush is still
    /// under way, and nothing temporary is left.
    @Test func aFileNamedBeforeItsFlushIsInPlaceWhileItFlushes() throws {
        let path = folder.path("pulled/central.csv")
        try AtomicFile.makeDirectory(folder.path("pulled"))
        let writer = try AtomicFileWriter(path: path, keepingCached: true)
        try writer.write("VT Tag\n100001\n")
        let flush = HeldFlush()
        try writer.takeNameFlushingLater(synchronizing: flush.synchronize)
        #expect(folder.read("pulled/central.csv") == "VT Tag\n100001\n")
        #expect(folder.list("pulled") == ["central.csv"])
        flush.released.signal()
        try writer.waitForFlush()
        #expect(folder.read("pulled/central.csv") == "VT Tag\n100001\n")
        #expect(folder.list("pulled") == ["central.csv"])
    }

    /// A flush that fails is the wait's error, and the file whose bytes may never reach the disk is removed.
    @Test func aFailedFlushAfterTheNameIsTheWaitsErrorAndRemovesTheFile() throws {
        let path = folder.path("central.csv")
        let writer = try AtomicFileWriter(path: path)
        try writer.write("VT Tag\n100001\n")
        let flush = HeldFlush(failure: EIO)
        try writer.takeNameFlushingLater(synchronizing: flush.synchronize)
        flush.released.signal()
        let error = #expect(throws: StocktakeError.self) { try writer.waitForFlush() }
        #expect(error == .cannotWrite(path: path, reason: "input/output error"))
        #expect(folder.list() == [])
    }
}
