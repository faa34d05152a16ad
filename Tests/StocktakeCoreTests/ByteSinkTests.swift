import Testing

@testable import StocktakeCore

@Suite struct ByteSinkTests {
    /// Writes the same appends into a sink of each kind.
    private static func write<Sink: ByteSink & ~Copyable>(into sink: inout Sink) {
        sink.append(UInt8(ascii: "<"))
        sink.append("c t=\"s\">")
        sink.append(utf8: "Zürich – 2")
        sink.append(repeating: UInt8(ascii: "0"), count: 4)
        sink.append(repeating: UInt8(ascii: "x"), count: 0)
        sink.append(atMost: 6) { pointer in
            pointer.initialize(repeating: UInt8(ascii: "9"), count: 2)
            return 2
        }
        sink.append(atMost: 0) { _ in 0 }
        Array("</c>".utf8).withUnsafeBytes { sink.append(contentsOf: $0) }
        Array("!?".utf8).withUnsafeBufferPointer { sink.append(contentsOf: $0) }
        sink.removeLast(1)
    }

    private static let expected = Array("<c t=\"s\">Zürich – 2000099</c>!".utf8)

    @Test func anArrayTakesTheAppendsInOrder() {
        var array: [UInt8] = [UInt8(ascii: "_")]
        Self.write(into: &array)
        #expect(array == [UInt8(ascii: "_")] + Self.expected)
        #expect(array.count == Self.expected.count + 1)
    }

    @Test func aByteBufferTakesTheSameBytesAsAnArray() {
        var buffer = ByteBuffer()
        Self.write(into: &buffer)
        #expect(buffer.bytes == Self.expected)
    }

    @Test func anArrayKeepsOnlyTheBytesWritten() {
        var array: [UInt8] = []
        array.append(atMost: 100) { pointer in
            for index in 0..<5 { pointer[index] = UInt8(index) }
            return 5
        }
        #expect(array == [0, 1, 2, 3, 4])
    }
}
