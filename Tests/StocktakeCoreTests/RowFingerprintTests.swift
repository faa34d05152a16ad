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
}
