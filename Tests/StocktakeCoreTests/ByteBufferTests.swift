import Testing

@testable import StocktakeCore

@Suite struct ByteBufferTests {
    @Test func appendsBytesInOrderAcrossGrowth() {
        var buffer = ByteBuffer()
        var expected: [UInt8] = []
        // Far past the first capacity, so the memory grows several times; each kind of append in turn.
        for index in 0..<5_000 {
            let byte = UInt8(truncatingIfNeeded: index)
            switch index % 4 {
            case 0:
                buffer.append(byte)
                expected.append(byte)
            case 1:
                let run = [UInt8](repeating: byte, count: index % 37)
                run.withUnsafeBytes { buffer.append(contentsOf: $0) }
                expected += run
            case 2:
                let run = (0..<(index % 23)).map { UInt8(truncatingIfNeeded: $0 + index) }
                run.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
                expected += run
            default:
                // Room for 9, 3 written.
                buffer.append(atMost: 9) { pointer in
                    for offset in 0..<3 { pointer[offset] = byte &+ UInt8(offset) }
                    return 3
                }
                expected += (0..<3).map { byte &+ UInt8($0) }
            }
        }
        #expect(buffer.count == expected.count)
        #expect(buffer.bytes == expected)
        #expect(buffer.withUnsafeBytes { Array($0) } == expected)
        #expect(buffer[0] == expected[0] && buffer[expected.count - 1] == expected[expected.count - 1])
        #expect(buffer.capacity >= buffer.count)
    }

    /// Appends `count` bytes one at a time through `ByteSink`, as the generic writers do.
    private static func appendOneByOne<Sink: ByteSink & ~Copyable>(_ count: Int, to sink: inout Sink) {
        for index in 0..<count { sink.append(UInt8(truncatingIfNeeded: index % 251 + 1)) }
    }

    @Test func aByteAppendedThroughByteSinkWhenFullIsKept() {
        var buffer = ByteBuffer()
        Self.appendOneByOne(1_000, to: &buffer)
        #expect(buffer.bytes == (0..<1_000).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) })
    }

    /// Appends cells and commas as `CleanedTable` does: a comma, then a cell whose append may grow the memory.
    private static func appendCells<Sink: ByteSink & ~Copyable>(_ count: Int, to sink: inout Sink) {
        for index in 0..<count {
            CSVWriter.appendField(String(repeating: "x", count: index % 13 + 1), to: &sink)
            sink.append(ASCII.comma)
        }
    }

    @Test func aByteAppendedBeforeACellThatGrowsTheMemoryIsKept() {
        var array: [UInt8] = []
        Self.appendCells(3_000, to: &array)
        var buffer = ByteBuffer()
        Self.appendCells(3_000, to: &buffer)
        #expect(buffer.bytes == array)
    }

    @Test func startsEmptyWithTheRoomAskedFor() {
        let buffer = ByteBuffer(capacity: 10_000)
        #expect(buffer.isEmpty && buffer.count == 0)
        #expect(buffer.bytes == [])
        #expect(buffer.capacity >= 10_000)
    }

    @Test func anAppendBiggerThanTwiceTheCapacityFitsAtOnce() {
        var buffer = ByteBuffer()
        let big = [UInt8](repeating: 7, count: buffer.capacity * 5 + 3)
        buffer.append(1)
        big.withUnsafeBytes { buffer.append(contentsOf: $0) }
        #expect(buffer.bytes == [1] + big)
        buffer.append(atMost: buffer.capacity * 3) { pointer in
            pointer.initialize(repeating: 9, count: 4)
            return 4
        }
        #expect(buffer.bytes == [1] + big + [9, 9, 9, 9])
    }

    @Test func removingKeepsTheMemoryAndTheBytesBefore() {
        var buffer = ByteBuffer()
        buffer.append("<row r=\"1\">")
        let capacity = buffer.capacity
        buffer.removeLast(3)
        #expect(buffer.bytes == Array("<row r=\"".utf8))
        buffer.append(utf8: "2\">")
        #expect(buffer.bytes == Array("<row r=\"2\">".utf8))
        buffer.removeAll()
        #expect(buffer.isEmpty && buffer.capacity == capacity)
        buffer.append(repeating: UInt8(ascii: "0"), count: 3)
        #expect(buffer.bytes == Array("000".utf8))
    }

    @Test func reservingMakesRoomWithoutChangingTheBytes() {
        var buffer = ByteBuffer()
        buffer.append(utf8: "café")
        buffer.reserveCapacity(100_000)
        #expect(buffer.capacity >= 100_000)
        #expect(buffer.bytes == Array("café".utf8))
        buffer.reserveCapacity(10)
        #expect(buffer.capacity >= 100_000)
    }
}
