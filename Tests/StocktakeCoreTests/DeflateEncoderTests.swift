import Foundation
import Testing

@testable import StocktakeCore

@Suite("DeflateEncoder")
struct DeflateEncoderTests {
    static let generous = ZipLimits(maximumEntrySize: 1 << 30, maximumRatio: 1 << 20, ratioAppliesAbove: 1 << 30)

    /// Inflates pieces compressed apart and laid end to end, closed by a final empty block, with zlib.
    static func inflate(_ pieces: [[UInt8]], count: Int) throws -> [UInt8] {
        let stream = pieces.joined() + DeflateEncoder.finalBlock
        return try ZipInflater.inflate(Array(stream)[...], expectedSize: count, limits: generous)
    }

    static func roundTrip(_ input: [UInt8]) throws -> [UInt8] {
        try inflate([DeflateEncoder.compress(input)], count: input.count)
    }

    @Test("what it compresses, zlib inflates to the same bytes, for short, repetitive, noisy and sheet-like input")
    func roundTrips() throws {
        var inputs: [[UInt8]] = [
            [], [0x41], Array("abc".utf8), Array("abcd".utf8), Array("abcdabcd".utf8),
            Array(repeating: 0x20, count: 1_000_000), ZipInflaterTests.noise(300_000),
            ZipWriterTests.sheetLike(60_000), Array(String(repeating: "0123456789", count: 100_000).utf8),
        ]
        // Noise with a repeat of its own first bytes at every distance around the window's end.
        let noise = ZipInflaterTests.noise(40_000)
        for distance in [32_766, 32_767, 32_768, 32_769, 32_770] {
            inputs.append(Array(noise[0..<distance]) + Array(noise[0..<300]))
        }
        // Repeats of each length around deflate's length symbols' edges, each ending the input.
        for length in [3, 4, 5, 10, 11, 12, 257, 258, 259, 260, 516, 517] {
            inputs.append(Array(noise[0..<1_000]) + Array(noise[0..<length]))
        }
        for input in inputs {
            #expect(try Self.roundTrip(input) == input, "input of \(input.count) bytes")
        }
    }

    @Test("pieces compressed apart, laid end to end and closed by the final block, inflate to their concatenation")
    func piecesJoin() throws {
        let pieces = [ZipWriterTests.sheetLike(5_000, seed: 1), [], ZipInflaterTests.noise(70_000), Array("x".utf8)]
        let joined = try Self.inflate(pieces.map { DeflateEncoder.compress($0) }, count: pieces.joined().count)
        #expect(joined == Array(pieces.joined()))
    }

    @Test("an input longer than one pass takes is compressed in pieces that inflate as one stream")
    func longInputInPieces() throws {
        let sheet = ZipWriterTests.sheetLike(2_000)
        let pieces = sheet.withUnsafeBytes { DeflateEncoder.compress($0, pieceSize: 10_000) }
        #expect(pieces != DeflateEncoder.compress(sheet))
        #expect(try Self.inflate([pieces], count: sheet.count) == sheet)
    }

    @Test("the output ends with a sync flush: an empty stored block, byte-aligned, not the last block")
    func endsWithSyncFlush() {
        #expect(DeflateEncoder.compress([]) == [0x00, 0x00, 0x00, 0xFF, 0xFF])
        let bytes = DeflateEncoder.compress(ZipWriterTests.sheetLike(1_000))
        #expect(Array(bytes.suffix(4)) == [0x00, 0x00, 0xFF, 0xFF])
        // The first block is not final: bit 0 of the first byte is clear.
        #expect(bytes[0] & 1 == 0)
    }

    @Test("sheet XML shrinks to under a sixth in several blocks; noise is stored, a few bytes per 64 KiB larger")
    func sizes() {
        let sheet = ZipWriterTests.sheetLike(100_000)
        let compressed = DeflateEncoder.compress(sheet)
        #expect(compressed.count * 6 < sheet.count)
        let noise = ZipInflaterTests.noise(1_000_000)
        let stored = DeflateEncoder.compress(noise)
        // A block of 65,536 symbols is stored as two blocks (at most 65,535 bytes each), 5 bytes of header each.
        #expect(stored.count <= noise.count + 10 * (noise.count / DeflateEncoder.symbolsPerBlock + 1) + 5)
        #expect(stored.count >= noise.count)
    }

    @Test("the same input always gives the same bytes")
    func deterministic() {
        let sheet = ZipWriterTests.sheetLike(20_000, seed: 3)
        #expect(DeflateEncoder.compress(sheet) == DeflateEncoder.compress(sheet))
    }

    @Test("repeat lengths map to RFC 1951's length symbols and extra bits")
    func lengthSymbols() {
        func symbol(_ length: Int) -> (Int, Int, Int) {
            let entry = DeflateEncoder.lengthSymbols[length - 3]
            return (Int(entry.symbol), Int(entry.extraBits), Int(entry.extra))
        }
        #expect(symbol(3) == (257, 0, 0))
        #expect(symbol(10) == (264, 0, 0))
        #expect(symbol(11) == (265, 1, 0))
        #expect(symbol(12) == (265, 1, 1))
        #expect(symbol(13) == (266, 1, 0))
        #expect(symbol(19) == (269, 2, 0))
        #expect(symbol(35) == (273, 3, 0))
        #expect(symbol(42) == (273, 3, 7))
        #expect(symbol(227) == (284, 5, 0))
        #expect(symbol(257) == (284, 5, 30))
        #expect(symbol(258) == (285, 0, 0))
        #expect(DeflateEncoder.lengthExtraBits[265] == 1 && DeflateEncoder.lengthExtraBits[284] == 5)
        #expect(DeflateEncoder.lengthExtraBits[264] == 0 && DeflateEncoder.lengthExtraBits[285] == 0)
    }

    @Test("distances map to RFC 1951's distance symbols and extra bits")
    func distanceSymbols() {
        func symbol(_ distance: Int) -> (Int, Int, Int) {
            let entry = DeflateEncoder.distanceSymbol(distance)
            return (entry.symbol, entry.extraBits, entry.extra)
        }
        #expect(symbol(1) == (0, 0, 0))
        #expect(symbol(4) == (3, 0, 0))
        #expect(symbol(5) == (4, 1, 0))
        #expect(symbol(6) == (4, 1, 1))
        #expect(symbol(7) == (5, 1, 0))
        #expect(symbol(13) == (7, 2, 0))
        #expect(symbol(16) == (7, 2, 3))
        #expect(symbol(24_577) == (29, 13, 0))
        #expect(symbol(32_768) == (29, 13, 8_191))
        for distance in 1...32_768 {
            let entry = DeflateEncoder.distanceSymbol(distance)
            #expect(entry.extraBits == DeflateEncoder.distanceExtraBits[entry.symbol])
            #expect(entry.extra >= 0 && entry.extra < 1 << entry.extraBits)
            #expect(entry.extra == distance - 1 - DeflateEncoder.distanceBases[entry.symbol], "distance \(distance)")
        }
    }
}
