import Foundation
import Testing

@testable import StocktakeCore

@Suite("ByteSource: a file or bytes in memory, chunk by chunk")
struct ByteSourceTests {
    @Test func textInMemoryIsHandedOverWholeAndThenNothing() throws {
        let bytes = Array("Tag,Model\n100001,AP-515\n".utf8)
        var source = ByteSource(bytes: bytes, name: "memory.csv")
        #expect(try source.nextChunk(capacity: 4) == bytes, "the capacity does not cut text already in memory")
        #expect(try source.nextChunk(capacity: 4).isEmpty)
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(try buffer.withUnsafeMutableBufferPointer { try source.nextChunk(into: $0) } == 0)
    }

    @Test func textInMemoryFromAnOffsetIsItsRest() throws {
        var source = ByteSource(bytes: Array("abcdef".utf8), name: "memory.csv", offset: 2)
        #expect(try source.nextChunk(capacity: 100) == Array("cdef".utf8))
        #expect(try source.nextChunk(capacity: 100).isEmpty)
    }

    @Test func aFileIsReadInChunksOfTheCapacityThenNothing() throws {
        let folder = TemporaryFolder()
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let path = folder.write(bytes, to: "chunks.csv")
        var source = try ByteSource(path: path, name: "chunks.csv")
        defer { source.finish() }
        var read: [UInt8] = []
        var sizes: [Int] = []
        while true {
            let chunk = try source.nextChunk(capacity: 300)
            if chunk.isEmpty { break }
            sizes.append(chunk.count)
            read += chunk
        }
        #expect(read == bytes)
        #expect(sizes == [300, 300, 300, 100])
        #expect(try source.nextChunk(capacity: 0).isEmpty, "a capacity of 0 reads at most one byte, here none")
    }

    @Test func theRemainingBytesOfAFileAreAllOfItAfterTheOffset() throws {
        let folder = TemporaryFolder()
        // Larger than a continuation read, so that a first read cut short would show.
        let bytes = (0..<(3 * FileContents.chunkSize + 5)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = folder.write(bytes, to: "central.csv")
        var whole = try ByteSource(path: path, name: "central.csv")
        defer { whole.finish() }
        #expect(try whole.remainingBytes() == bytes)
        #expect(try whole.remainingBytes().isEmpty)
        var rest = try ByteSource(path: path, name: "central.csv", offset: 10)
        defer { rest.finish() }
        #expect(try rest.remainingBytes() == Array(bytes[10...]))
        let empty = folder.write([], to: "empty.csv")
        var nothing = try ByteSource(path: empty, name: "empty.csv")
        defer { nothing.finish() }
        #expect(try nothing.remainingBytes().isEmpty)
    }

    @Test func bytesAddedToAFileAfterItOpenedAreReadToo() throws {
        let folder = TemporaryFolder()
        let path = folder.write(Array("Tag\n".utf8), to: "growing.csv")
        var source = try ByteSource(path: path, name: "growing.csv")
        defer { source.finish() }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("100001\n".utf8))
        try handle.close()
        #expect(try source.remainingBytes() == Array("Tag\n100001\n".utf8))
    }

    /// A file whose size `fstat` does not tell (a `/proc` file says 0) is read chunk by chunk to its end.
    @Test func aFileOfUnknownSizeIsReadToItsEnd() throws {
        var source = try ByteSource(path: "/proc/self/cmdline", name: "cmdline")
        defer { source.finish() }
        let expected = try #require(FileManager.default.contents(atPath: "/proc/self/cmdline"))
        #expect(!expected.isEmpty)
        #expect(try source.remainingBytes() == Array(expected))
    }

    @Test func theRemainingBytesInMemoryAreTheRestOfThem() throws {
        var source = ByteSource(bytes: Array("abcdef".utf8), name: "memory.csv", offset: 4)
        #expect(try source.remainingBytes() == Array("ef".utf8))
        #expect(try source.remainingBytes().isEmpty)
    }

    @Test func aFailedReadOfTheRemainingBytesThrowsItsErrno() throws {
        var source = try ByteSource(path: "/proc/self/mem", name: "mem")
        defer { source.finish() }
        #expect {
            _ = try source.remainingBytes()
        } throws: { error in
            guard case .unreadable(let file, _, let errno) = error as? CSVError else { return false }
            return file == "mem" && errno == EIO
        }
    }

    /// Reading this process's own memory from address 0 fails with EIO: a read error after the file opened, which
    /// reaches the caller with its errno.
    @Test func aFailedReadThrowsItsErrno() throws {
        var source = try ByteSource(path: "/proc/self/mem", name: "mem")
        defer { source.finish() }
        #expect {
            _ = try source.nextChunk(capacity: 16)
        } throws: { error in
            guard case .unreadable(let file, _, let errno) = error as? CSVError else { return false }
            return file == "mem" && errno == EIO
        }
    }
}
