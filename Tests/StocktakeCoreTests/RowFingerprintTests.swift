import Foundation
import Testing

@testable import StocktakeCore

struct RowFingerprintTests {
    func fingerprint(_ cells: [String]) -> RowFingerprint {
        var fingerprint = RowFingerprint()
        for cell in cells {
            Array(cell.utf8).withUnsafeBufferPointer { fingerprint.add($0) }
        }
        return fingerprint
    }

    @Test func equalRowsAreEqual() {
        #expect(fingerprint(["1", "abc", ""]) == fingerprint(["1", "abc", ""]))
        #expect(fingerprint([]) == fingerprint([]))
    }

    @Test func whereCellsSplitMatters() {
        #expect(fingerprint(["a", "bc"]) != fingerprint(["ab", "c"]))
        #expect(fingerprint(["abc"]) != fingerprint(["a", "b", "c"]))
    }

    /// Every way of cutting the same bytes into cells gives its own fingerprint: a cell's end can never be read as
    /// bytes of text, whatever the cell's length (each length to 20 ends in each kind of last word).
    @Test func everySplitOfTheSameBytesDiffers() {
        var random = SystemRandomNumberGenerator()
        for length in 0...20 {
            // Text bytes: never NUL, and high bytes such as 0x80 to 0x87 and 0xFF that look like a cell's last word.
            let bytes = (0..<length).map { index in
                index % 3 == 0
                    ? UInt8.random(in: 0x80...0x87, using: &random) : UInt8.random(in: 1...255, using: &random)
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
                var fingerprint = RowFingerprint()
                for cell in cells { cell.withUnsafeBufferPointer { fingerprint.add($0) } }
                seen.insert(fingerprint)
                splits += 1
            }
            #expect(seen.count == splits, "length \(length)")
        }
    }

    /// A cell of 7 bytes then one of 1 against one cell of 9 whose eighth byte (0x87) is what a top byte counting
    /// 7 last bytes would be: a 7-byte cell's end must not be a word that text can be.
    @Test func aSevenByteCellDoesNotRunIntoTheNext() {
        var one = RowFingerprint()
        var other = RowFingerprint()
        for cell in [Array("ABCDEFG".utf8), Array("Q".utf8)] { cell.withUnsafeBufferPointer { one.add($0) } }
        (Array("ABCDEFG".utf8) + [0x87] + Array("Q".utf8)).withUnsafeBufferPointer { other.add($0) }
        #expect(one != other)
    }

    @Test func emptyCellsCount() {
        #expect(fingerprint(["a"]) != fingerprint(["a", ""]))
        #expect(fingerprint([]) != fingerprint([""]))
        #expect(fingerprint([""]) != fingerprint(["", ""]))
    }

    @Test func orderAndContentMatter() {
        #expect(fingerprint(["a", "b"]) != fingerprint(["b", "a"]))
        #expect(fingerprint(["1", "A"]) != fingerprint(["1", " A"]))
        #expect(fingerprint(["x\u{FF}"]) != fingerprint(["x"]))
    }

    @Test func manyDifferentRowsGiveDifferentFingerprints() {
        var seen: Set<RowFingerprint> = []
        for number in 0..<5000 {
            seen.insert(fingerprint([String(number), String(number % 7)]))
        }
        #expect(seen.count == 5000)
    }

    @Test func changingAnyByteOfACellOfAnyLengthChangesTheFingerprint() {
        var random = SystemRandomNumberGenerator()
        for length in 1...24 {
            for _ in 0..<20 {
                let cell = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                let original = cell.withUnsafeBufferPointer { bytes in
                    var fingerprint = RowFingerprint()
                    fingerprint.add(bytes)
                    return fingerprint
                }
                for position in 0..<length {
                    var changed = cell
                    changed[position] &+= UInt8.random(in: 1...255, using: &random)
                    let other = changed.withUnsafeBufferPointer { bytes in
                        var fingerprint = RowFingerprint()
                        fingerprint.add(bytes)
                        return fingerprint
                    }
                    #expect(other != original, "length \(length), byte \(position)")
                }
            }
        }
    }

    /// Cells of every length from 0 to 24 placed against an unreadable page, after their end and before their start:
    /// reading a byte beyond the cell would end the test process.
    @Test func noByteOutsideTheCellIsRead() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let memory = try #require(
            mmap(nil, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), "mmap failed")
        try #require(memory != MAP_FAILED)
        defer { munmap(memory, 3 * page) }
        try #require(mprotect(memory, page, PROT_NONE) == 0)
        try #require(mprotect(memory + 2 * page, page, PROT_NONE) == 0)
        let readable = (memory + page).assumingMemoryBound(to: UInt8.self)
        for index in 0..<page { readable[index] = UInt8(truncatingIfNeeded: index) }
        var seen: Set<RowFingerprint> = []
        for length in 0...24 {
            for start in [page - length, 0] {
                var fingerprint = RowFingerprint()
                fingerprint.add(UnsafeBufferPointer(start: readable + start, count: length))
                if start == 0 { seen.insert(fingerprint) }
            }
        }
        #expect(seen.count == 25)
    }
}
