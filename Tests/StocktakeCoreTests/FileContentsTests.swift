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

    /// Reading this process's own memory from address 0 fails with EIO.
    @Test func aFailedReadIsItsErrno() throws {
        #expect(try read("/proc/self/mem", expectedSize: 16) == .failure(FileContents.Failure(code: EIO)))
        #expect(try read("/proc/self/mem", expectedSize: 0) == .failure(FileContents.Failure(code: EIO)))
    }
}
