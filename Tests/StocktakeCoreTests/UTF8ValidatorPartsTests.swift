import Foundation
import Testing

@testable import StocktakeCore

@Suite("UTF8Validator in parts: a long text's encoding checked on all cores, with the answer of one pass")
struct UTF8ValidatorPartsTests {
    let folder = TemporaryFolder()

    /// Sequences put where a range starts or ends: well-formed characters of every length, and the ill-formed kinds
    /// that a cut could hide (a sequence cut short, stray and surplus continuation bytes, an overlong form, a
    /// surrogate, a code point past U+10FFFF).
    static let pieces: [[UInt8]] = [
        Array("é".utf8), Array("日".utf8), Array("😀".utf8), Array("é日😀".utf8),
        [0xC3], [0xE6, 0x97], [0xF0, 0x9F, 0x98], [0x80], [0x80, 0x80, 0x80, 0x80], [0xF0, 0x9F, 0x98, 0x80, 0x80],
        [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE6, 0x97, 0xA5, 0x80],
    ]

    /// One pass of the stream validator, the reference.
    private func isValidInOnePass(_ bytes: [UInt8]) -> Bool {
        var stream = UTF8Validator.Stream()
        bytes.withUnsafeBufferPointer { stream.take($0) }
        return stream.isValid
    }

    /// Every piece, at every place within a few bytes of where any of 2 to 5 ranges would start, in ASCII text: the
    /// answer in parts is the answer of one pass, also after a start taken apart (with a sequence it cut short).
    @Test func theAnswerIsThatOfOnePassWhereverASequenceFalls() {
        let length = 240
        var checked = 0
        for parts in 2...5 {
            let cuts = (1..<parts).map { length / parts * $0 }
            for piece in Self.pieces {
                for cut in cuts {
                    for shift in -5...5 where cut + shift >= 0 && cut + shift + piece.count <= length {
                        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                        bytes.replaceSubrange(cut + shift..<cut + shift + piece.count, with: piece)
                        for prefix in [[], Array("x,y\n".utf8), [0xE6, 0x97]] {
                            let text = prefix + bytes
                            var start = UTF8Validator.Stream()
                            prefix.withUnsafeBufferPointer { start.take($0) }
                            let answer = UTF8Validator.isValid(
                                .memory(text), name: "sheet.csv", from: prefix.count, after: start, parts: parts,
                                minimum: 1)
                            #expect(answer == isValidInOnePass(text), "\(piece) at \(cut + shift) of \(parts) parts")
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 1_000)
    }

    /// A file is checked in parts as text in memory is, to its end.
    @Test func aFileIsCheckedToItsEnd() throws {
        var bytes = [UInt8](repeating: UInt8(ascii: "b"), count: 100_000)
        let valid = folder.write(bytes, to: "valid.csv")
        bytes[99_999] = 0xC3
        let cutShort = folder.write(bytes, to: "cut-short.csv")
        for parts in [2, 3, 7] {
            for (path, expected) in [(valid, true), (cutShort, false)] {
                #expect(
                    UTF8Validator.isValid(
                        .file(path: path), name: "sheet.csv", from: 10, after: UTF8Validator.Stream(), parts: parts,
                        minimum: 1) == expected)
            }
        }
    }

    /// A text too short to cut, one part, or a file that cannot be read is left to the check in order (`nil`).
    @Test func whatCannotBeCutIsLeftToTheCheckInOrder() {
        let text = [UInt8](repeating: UInt8(ascii: "c"), count: 1_000)
        let start = UTF8Validator.Stream()
        #expect(UTF8Validator.isValid(.memory(text), name: "s", from: 0, after: start, parts: 2) == nil)
        #expect(UTF8Validator.isValid(.memory(text), name: "s", from: 0, after: start, parts: 1, minimum: 1) == nil)
        #expect(UTF8Validator.isValid(.memory(text), name: "s", from: 995, after: start, parts: 2, minimum: 1) == nil)
        #expect(
            UTF8Validator.isValid(
                .file(path: folder.path("missing.csv")), name: "s", from: 0, after: start, parts: 2, minimum: 1)
                == nil)
    }

    /// Read with its encoding checked in parts, a sheet with one byte that is not UTF-8 far from its start is
    /// Windows-1252 (its `é` read as such), and without it UTF-8, as in one pass.
    @Test func aReaderCheckingInPartsDecidesTheEncodingAsOnePassDoes() throws {
        let row = Array("tag,room\n".utf8) + (0..<5_000).flatMap { Array("\(100_000 + $0),R\($0)\n".utf8) }
        let latin = row + [0x31, 0x2C, 0xE9, 0x0A]
        let utf8 = row + Array("1,é\n".utf8)
        for (name, bytes, encoding) in [("latin.csv", latin, TextEncoding.windows1252), ("utf8.csv", utf8, .utf8)] {
            let path = folder.write(bytes, to: name)
            for parts in [1, 2, 3] {
                var reader = try CSVReader(path: path, delimiter: nil, chunkSize: 4_096)
                reader.encodingCheckParts = parts
                reader.encodingCheckInPartsFrom = 1
                var last: [String] = []
                try reader.forEachRecord { last = $0.strings }
                #expect(reader.encoding == encoding, "\(name) in \(parts) parts")
                #expect(last == ["1", "é"])
            }
        }
    }
}
