import Testing

@testable import StocktakeCore

@Suite("DeflateBlockHeader")
struct DeflateBlockHeaderTests {
    /// A non-final dynamic block holding only its end, then a sync flush and the stream's final block.
    static func emptyBlock(literals: HuffmanCode, distances: HuffmanCode) -> (bytes: [UInt8], headerBits: Int) {
        let header = DeflateBlockHeader(literals: literals, distances: distances)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 12)
        defer { buffer.deallocate() }
        var writer = DeflateBitWriter(output: buffer)
        writer.write(0b100, count: 3)
        header.write(to: &writer)
        writer.write(UInt64(literals.codes[256]), count: Int(literals.lengths[256]))
        // The sync flush's stored block follows the end code at once, then pads to a byte boundary.
        writer.write(0, count: 3)
        writer.alignToByte()
        #expect(writer.output - buffer == (3 + header.bits + Int(literals.lengths[256]) + 3 + 7) / 8)
        writer.write(0xFFFF_0000, count: 32)
        let bytes = Array(UnsafeBufferPointer(start: buffer, count: writer.output - buffer)) + DeflateEncoder.finalBlock
        return (bytes, header.bits)
    }

    @Test("zlib reads headers with long runs of absent symbols, repeated lengths and every run code")
    func zlibReadsHeaders() throws {
        var cases: [([UInt32], [UInt32])] = []
        // Few literals far apart: runs of zeros longer than 138 (code 18 twice), and 3 to 10 (code 17).
        var sparse = [UInt32](repeating: 0, count: 286)
        sparse[0] = 5
        sparse[200] = 3
        sparse[205] = 1
        sparse[256] = 1
        cases.append((sparse, [UInt32](repeating: 0, count: 30)))
        // Many equal frequencies: runs of one nonzero length (code 16), then the distances continuing a run.
        var flat = [UInt32](repeating: 10, count: 286)
        flat[256] = 10
        cases.append((flat, [UInt32](repeating: 10, count: 30)))
        var mixed = [UInt32](repeating: 0, count: 286)
        for index in stride(from: 0, to: 286, by: 7) { mixed[index] = UInt32(index % 50 + 1) }
        mixed[256] = 1
        var distances = [UInt32](repeating: 0, count: 30)
        distances[29] = 4
        cases.append((mixed, distances))
        for (literalFrequencies, distanceFrequencies) in cases {
            let literals = HuffmanCode(frequencies: literalFrequencies, limit: 15)
            let distances = HuffmanCode(frequencies: distanceFrequencies, limit: 15)
            let (bytes, _) = Self.emptyBlock(literals: literals, distances: distances)
            #expect(try ZipInflater.inflate(bytes[...], expectedSize: 0, limits: .standard) == [])
        }
    }

    @Test("a header of only the end-of-block code lists 257 literal/length codes and one distance code")
    func smallestCounts() throws {
        var frequencies = [UInt32](repeating: 0, count: 286)
        frequencies[256] = 1
        let literals = HuffmanCode(frequencies: frequencies, limit: 15)
        let distances = HuffmanCode(frequencies: [UInt32](repeating: 0, count: 30), limit: 15)
        let (bytes, _) = Self.emptyBlock(literals: literals, distances: distances)
        // HLIT (5 bits after the block type) is 0: 257 codes; HDIST is 1: the two distance codes 0 and 1.
        #expect((bytes[0] >> 3) & 0b11111 == 0)
        #expect(bytes[1] & 0b11111 == 1)
        #expect(try ZipInflater.inflate(bytes[...], expectedSize: 0, limits: .standard) == [])
    }
}
