import Foundation
import Testing

@testable import StocktakeCore

struct RowFingerprintTests {
    /// Calls `body` with `cells` as the buffers a record hands out.
    static func withCells<Result>(
        _ cells: [[UInt8]], _ body: (UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>) -> Result
    ) -> Result {
        let joined = cells.flatMap { $0 }
        return joined.withUnsafeBufferPointer { all in
            var offset = 0
            let buffers = cells.map { cell in
                defer { offset += cell.count }
                return UnsafeBufferPointer(rebasing: all[offset..<(offset + cell.count)])
            }
            return buffers.withUnsafeBufferPointer(body)
        }
    }

    /// The fingerprint of `cells` taken cell by cell.
    static func fingerprint(cells: [[UInt8]]) -> RowFingerprint {
        withCells(cells) { RowFingerprint(cells: $0) }
    }

    /// The fingerprint of `cells` taken from their text joined by `delimiter`, as a row of unquoted cells is.
    static func fingerprint(run cells: [[UInt8]], delimiter: UInt8) -> RowFingerprint {
        let text = Array(cells.map { $0 }.joined(separator: [delimiter]))
        return text.withUnsafeBufferPointer {
            RowFingerprint(run: $0, delimiter: delimiter, cellCount: cells.count)
        }
    }

    func fingerprint(_ cells: [String]) -> RowFingerprint {
        Self.fingerprint(cells: cells.map { Array($0.utf8) })
    }

    @Test func equalRowsAreEqual() {
        #expect(fingerprint(["1", "abc", ""]) == fingerprint(["1", "abc", ""]))
        #expect(fingerprint([]) == fingerprint([]))
    }

    @Test func whereCellsSplitMatters() {
        #expect(fingerprint(["a", "bc"]) != fingerprint(["ab", "c"]))
        #expect(fingerprint(["abc"]) != fingerprint(["a", "b", "c"]))
    }

    /// A row of unquoted cells is hashed from its text in place, its delimiters read as NUL: for every delimiter
    /// and any cells (every byte but NUL and the delimiter, of lengths around the 8-byte words), the fingerprint is
    /// the one its cells give one by one.
    @Test(arguments: [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: "|")])
    func aRunOfCellsAndTheCellsGiveTheSameFingerprint(delimiter: UInt8) {
        var random = CSVTestRandomGenerator(seed: 0x5EED + UInt64(delimiter))
        var seen: Set<RowFingerprint> = []
        for trial in 0..<600 {
            let count = 1 + trial % 13
            let cells = (0..<count).map { _ in
                (0..<Int.random(in: 0...19, using: &random)).map { _ in
                    var byte = UInt8.random(in: 1...255, using: &random)
                    while byte == delimiter { byte = UInt8.random(in: 1...255, using: &random) }
                    return byte
                }
            }
            let byCells = Self.fingerprint(cells: cells)
            #expect(Self.fingerprint(run: cells, delimiter: delimiter) == byCells, "\(cells)")
            seen.insert(byCells)
        }
        #expect(seen.count > 590)
    }

    /// Every way of cutting the same bytes into cells gives its own fingerprint: a cell's end can never be read as
    /// bytes of text, whatever the cell's length, NUL bytes (a workbook's `_x0000_`) included.
    @Test func everySplitOfTheSameBytesDiffers() {
        var random = CSVTestRandomGenerator(seed: 20)
        for length in 0...20 {
            // One byte in four is NUL.
            let bytes = (0..<length).map { _ in
                Int.random(in: 0..<4, using: &random) == 0 ? 0 : UInt8.random(in: 1...255, using: &random)
            }
            var seen: Set<RowFingerprint> = []
            var splits = 0
            // Each subset of the places between bytes, for the first 10 of them.
            let places = max(0, min(length - 1, 10))
            for mask in 0..<(1 << places) {
                var cells: [[UInt8]] = [[]]
                for (index, byte) in bytes.enumerated() {
                    if index > 0 && index <= places && mask & (1 << (index - 1)) != 0 { cells.append([]) }
                    cells[cells.count - 1].append(byte)
                }
                seen.insert(Self.fingerprint(cells: cells))
                splits += 1
            }
            #expect(seen.count == splits, "length \(length)")
        }
    }

    /// A workbook's cell may hold a NUL byte (`_x0000_`), which cannot then mark where a cell ends: a NUL and a
    /// cell's end in each other's place give two fingerprints, and a row with a NUL differs from every row without.
    @Test func aNULInACellIsNotACellsEnd() {
        #expect(fingerprint(["a\u{0}b", "c"]) != fingerprint(["a", "b\u{0}c"]))
        #expect(fingerprint(["a\u{0}b"]) != fingerprint(["a", "b"]))
        #expect(fingerprint(["\u{0}"]) != fingerprint(["", ""]))
        #expect(fingerprint(["\u{0}", ""]) != fingerprint(["", "\u{0}"]))
        #expect(fingerprint(["a\u{0}b", "c"]) == fingerprint(["a\u{0}b", "c"]))
    }

    @Test func emptyCellsCount() {
        #expect(fingerprint(["a"]) != fingerprint(["a", ""]))
        #expect(fingerprint([]) != fingerprint([""]))
        #expect(fingerprint([""]) != fingerprint(["", ""]))
        #expect(Self.fingerprint(run: [[]], delimiter: 0x2C) == fingerprint([""]))
        #expect(Self.fingerprint(run: [[], []], delimiter: 0x2C) == fingerprint(["", ""]))
    }

    @Test func orderAndContentMatter() {
        #expect(fingerprint(["a", "b"]) != fingerprint(["b", "a"]))
        #expect(fingerprint(["1", "A"]) != fingerprint(["1", " A"]))
        #expect(fingerprint(["x\u{FF}"]) != fingerprint(["x"]))
        // A delimiter inside a (quoted) cell is text, not the end of the cell.
        #expect(fingerprint(["a,b"]) != fingerprint(["a", "b"]))
    }

    @Test func manyDifferentRowsGiveDifferentFingerprints() {
        var seen: Set<RowFingerprint> = []
        for number in 0..<5000 {
            seen.insert(fingerprint([String(number), String(number % 7)]))
        }
        #expect(seen.count == 5000)
    }

    @Test func changingAnyByteOfACellOfAnyLengthChangesTheFingerprint() {
        var random = CSVTestRandomGenerator(seed: 24)
        for length in 1...24 {
            for _ in 0..<20 {
                let cell = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                let original = Self.fingerprint(cells: [cell, [0x31]])
                for position in 0..<length {
                    var changed = cell
                    changed[position] &+= 1
                    #expect(
                        Self.fingerprint(cells: [changed, [0x31]]) != original, "length \(length), byte \(position)")
                }
            }
        }
    }

    /// Runs of every length from 0 to 24 placed against an unreadable page, after their end and before their start:
    /// reading a byte beyond the run would end the test process.
    @Test func noByteOutsideTheRunIsRead() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let memory = try #require(
            mmap(nil, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), "mmap failed")
        try #require(memory != MAP_FAILED)
        defer { munmap(memory, 3 * page) }
        try #require(mprotect(memory, page, PROT_NONE) == 0)
        try #require(mprotect(memory + 2 * page, page, PROT_NONE) == 0)
        let readable = (memory + page).assumingMemoryBound(to: UInt8.self)
        for index in 0..<page { readable[index] = UInt8(truncatingIfNeeded: index) | 1 }
        var seen: Set<RowFingerprint> = []
        for length in 0...24 {
            for start in [page - length, 0] {
                let run = UnsafeBufferPointer(start: readable + start, count: length)
                let fingerprint = RowFingerprint(run: run, delimiter: 0x2C, cellCount: 1)
                if start == 0 { seen.insert(fingerprint) }
            }
        }
        #expect(seen.count == 25)
    }
}
