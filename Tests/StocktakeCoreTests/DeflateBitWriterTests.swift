import Testing

@testable import StocktakeCore

@Suite("DeflateBitWriter")
struct DeflateBitWriterTests {
    /// The bytes a writer leaves after `body`, in a buffer of `capacity` bytes.
    static func bytes(capacity: Int = 64, _ body: (inout DeflateBitWriter) -> Void) -> [UInt8] {
        bytesAndRest(capacity: capacity, body).bytes
    }

    /// The bytes a writer leaves after `body`, and the buffer's bytes from 8 past the last of them (each 0xEE before).
    static func bytesAndRest(capacity: Int, _ body: (inout DeflateBitWriter) -> Void) -> (
        bytes: [UInt8], rest: [UInt8]
    ) {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 0xEE, count: capacity)
        var writer = DeflateBitWriter(output: buffer)
        body(&writer)
        let count = writer.output - buffer
        return (
            Array(UnsafeBufferPointer(start: buffer, count: count)),
            Array(UnsafeBufferPointer(start: buffer + count + 8, count: max(0, capacity - count - 8)))
        )
    }

    @Test("bits go in least significant first, each whole byte as soon as it is complete, the rest when aligned")
    func bitOrder() {
        let bytes = Self.bytes { writer in
            writer.write(0b1, count: 1)
            writer.write(0b10, count: 2)
            writer.write(0b11111, count: 5)
            writer.write(0xABCD, count: 16)
            writer.write(0x1_2345_6789 & 0xFFFF_FFFF, count: 32)
            writer.alignToByte()
        }
        #expect(bytes == [0b1111_1101, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23])
    }

    @Test("aligning pads the last byte with zeros; bytes copied then follow as they are")
    func alignAndCopy() {
        let bytes = Self.bytes { writer in
            writer.write(0b101, count: 3)
            writer.alignToByte()
            writer.alignToByte()
            [UInt8]([1, 2, 3]).withUnsafeBytes { writer.copy($0) }
            writer.write(0xFF, count: 8)
            writer.alignToByte()
        }
        #expect(bytes == [0b101, 1, 2, 3, 0xFF])
    }
    @Test("writes of 0 to 56 bits in any order give their bits in order, wherever the pending bits stand")
    func everyWidthAtEveryPendingCount() {
        var random = CSVTestRandomGenerator(seed: 32)
        for _ in 0..<400 {
            var writes: [(value: UInt64, count: Int)] = []
            var expected: [Bool] = []
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let count = Int.random(in: 0...DeflateBitWriter.widestWrite, using: &random)
                let value = count == 0 ? 0 : UInt64.random(in: 0...UInt64.max, using: &random) >> UInt64(64 - count)
                writes.append((value, count))
                expected += (0..<count).map { (value >> UInt64($0)) & 1 == 1 }
            }
            let (bytes, rest) = Self.bytesAndRest(capacity: 128) { writer in
                for write in writes { writer.write(write.value, count: write.count) }
                writer.alignToByte()
            }
            #expect(rest.allSatisfy { $0 == 0xEE }, "nothing is stored more than 8 bytes past the last byte")
            let bits: [Bool] = bytes.flatMap { byte -> [Bool] in (0..<8).map { (byte >> UInt8($0)) & 1 == 1 } }
            #expect(bytes.count == (expected.count + 7) / 8)
            #expect(Array(bits.prefix(expected.count)) == expected)
            #expect(!bits.dropFirst(expected.count).contains(true), "the last byte is padded with zeros")
        }
    }
}
