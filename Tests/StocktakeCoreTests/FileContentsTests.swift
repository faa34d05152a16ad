import Foundation
import Testing

@testable import StocktakeCore

#if canImport(Glibc)
    import Glibc
#endif

@Suite("FileContents: the rest of an open file in one array")
struct FileContentsTests {
    let folder = TemporaryFolder()

    /// Reads the file at `path` from `offset` with `expectedSize` as the size it had.
    func read(_ path: String, offset: Int = 0, expectedSize: Int) throws -> Result<[UInt8], FileContents.Failure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        if offset > 0 { try #require(lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset)) }
        return FileContents.read(descriptor, expectedSize: expectedSize)
    }

    @Test func aFileOfTheExpectedSizeIsReadWhole() throws {
        let bytes = (0..<(2 * FileContents.chunkSize + 3)).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let path = folder.write(bytes, to: "sheet.csv")
        #expect(try read(path, expectedSize: bytes.count).get() == bytes)
        #expect(try read(path, offset: 100, expectedSize: bytes.count - 100).get() == Array(bytes[100...]))
        #expect(try read(folder.write([], to: "empty.csv"), expectedSize: 0).get() == [])
    }

    /// A file longer than it was when opened (it grew, or its size was not known: 0) is read on to its end; one that
    /// is shorter ends where it ends.
    @Test(arguments: [0, 1, 4_000, 9_999, 10_000, 10_001, 50_000])
    func whateverSizeWasExpectedTheBytesAreTheFiles(expectedSize: Int) throws {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let path = folder.write(bytes, to: "sheet-\(expectedSize).csv")
        #expect(try read(path, expectedSize: expectedSize).get() == bytes)
    }

    /// Read in parts at once (each thread its own range), whatever size was expected and wherever the file's offset
    /// was: the same bytes as one read in order, and the offset left at the end.
    @Test(arguments: [(0, 10_000), (0, 4_000), (0, 50_000), (0, 1), (3_333, 6_667), (3_333, 2_000), (3_333, 9_000)])
    func readInPartsTheBytesAreTheSame(offset: Int, expectedSize: Int) throws {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
        let path = folder.write(bytes, to: "parts-\(offset)-\(expectedSize).csv")
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset))
        let read = try FileContents.read(descriptor, expectedSize: expectedSize, inPartsFrom: 1).get()
        #expect(read == Array(bytes[offset...]))
        #expect(lseek(descriptor, 0, SEEK_CUR) == off_t(bytes.count))
    }

    /// A sheet past the size read in parts comes back whole, byte for byte.
    @Test func aLargeFileIsReadWhole() throws {
        let count = FileContents.partsFrom + 12_345
        // A pattern of a prime length doubled up to the size (made fast even in a debug build), then every page
        // marked with its own number, so that no part can be found in another's place.
        var bytes = (0..<4_099).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        while bytes.count < count { bytes += bytes }
        bytes.removeLast(bytes.count - count)
        for page in stride(from: 0, to: count - 4, by: 4_096) {
            withUnsafeBytes(of: UInt32(page / 4_096).littleEndian) { bytes.replaceSubrange(page..<page + 4, with: $0) }
        }
        let path = folder.write(bytes, to: "large.csv")
        #expect(try read(path, expectedSize: count).get() == bytes)
        #expect(try read(path, offset: 1_000, expectedSize: count - 1_000).get() == Array(bytes[1_000...]))
    }

    /// A part of a regular file that the system fails to read (EIO from a failing disk), or finds shorter than the
    /// file was (it shrank since it was opened), leaves the read in order to do: the bytes are the file's, read from
    /// the same offset, and the offset ends past them. An interrupted part is read on.
    @Test(arguments: [EIO, 0, EINTR])
    func aPartThatFailsIsReadAgainInOrder(failure: Int32) throws {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 17 &+ 3) }
        let path = folder.write(bytes, to: "failing-\(failure).csv")
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(lseek(descriptor, 1_000, SEEK_SET) == 1_000)
        final class Calls: @unchecked Sendable {
            let lock = NSLock()
            var failed = false
            /// Every offset a part was read at.
            var offsets: [off_t] = []
            var failedAt: off_t = -1
        }
        let calls = Calls()
        let read = try FileContents.read(
            descriptor, expectedSize: 9_000, inPartsFrom: 1,
            positionalRead: { descriptor, buffer, count, offset in
                // The part that starts at the half fails once: EIO, the end of the file, or an interruption.
                let fails = calls.lock.withLock { () -> Bool in
                    calls.offsets.append(offset)
                    guard offset >= 1_000 + 4_500, !calls.failed else { return false }
                    calls.failed = true
                    calls.failedAt = offset
                    return true
                }
                guard fails else { return pread(descriptor, buffer, count, offset) }
                if failure == 0 { return 0 }
                errno = failure
                return -1
            }
        ).get()
        #expect(calls.failed == (Parallel.threads > 1))
        if calls.failed {
            // Interrupted, the part is asked for again where it was; failed, it is not (the read in order takes over).
            #expect(calls.offsets.filter { $0 == calls.failedAt }.count == (failure == EINTR ? 2 : 1))
        }
        #expect(read == Array(bytes[1_000...]))
        #expect(lseek(descriptor, 0, SEEK_CUR) == off_t(bytes.count))
    }

    /// Reading this process's own memory from address 0 fails with EIO.
    @Test func aFailedReadIsItsErrno() throws {
        #expect(try read("/proc/self/mem", expectedSize: 16) == .failure(FileContents.Failure(code: EIO)))
        #expect(try read("/proc/self/mem", expectedSize: 0) == .failure(FileContents.Failure(code: EIO)))
        // Not a regular file: read in order, whatever the size, so the failure is the same.
        let descriptor = open("/proc/self/mem", O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(
            FileContents.read(descriptor, expectedSize: 1 << 20, inPartsFrom: 1)
                == .failure(FileContents.Failure(code: EIO)))
    }
}
