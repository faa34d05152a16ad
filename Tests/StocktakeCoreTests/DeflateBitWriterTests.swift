import Testing

@testable import StocktakeCore

@Suite("DeflateBitWriter")
struct DeflateBitWriterTests {
    /// The bytes a writer leaves after `body`.
    static func bytes(_ body: (inout DeflateBitWriter) -> Void) -> [UInt8] {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 0xEE, count: 64)
        var writer = DeflateBitWriter(output: buffer)
        body(&writer)
        return Array(UnsafeBufferPointer(start: buffer, count: writer.output - buffer))
    }

    @Test("bits go in least significant first, whole bytes once 32 are pending, the rest when aligned")
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
}
