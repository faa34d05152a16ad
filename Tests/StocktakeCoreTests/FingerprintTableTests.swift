import Testing

@testable import StocktakeCore

struct FingerprintTableTests {
    func fingerprint(_ number: Int) -> RowFingerprint {
        RowFingerprintTests.fingerprint(cells: [Array(String(number).utf8)])
    }

    @Test func theFirstOccurrenceIsKept() {
        var table = FingerprintTable()
        #expect(table.first(of: fingerprint(1)) == nil)
        #expect(table.insert(fingerprint(1), occurrence: 3) == nil)
        #expect(table.insert(fingerprint(1), occurrence: 9) == 3)
        #expect(table.first(of: fingerprint(1)) == 3)
        #expect(table.count == 1)
        #expect(table.first(of: fingerprint(2)) == nil)
    }

    /// A row is looked for once: the place a lookup found empty takes the insert, and a later lookup finds it there.
    @Test func aPlaceFoundEmptyTakesTheInsert() {
        var table = FingerprintTable()
        let place = table.place(of: fingerprint(7))
        #expect(place.first == nil)
        table.insert(fingerprint(7), occurrence: 2, at: place)
        #expect(table.place(of: fingerprint(7)).first == 2)
        #expect(table.first(of: fingerprint(8)) == nil)
        #expect(table.count == 1)
    }

    /// Occurrence 0 (the first record) is an occurrence, not an empty slot.
    @Test func occurrenceZeroIsFound() {
        var table = FingerprintTable()
        table.insert(fingerprint(5), occurrence: 0)
        #expect(table.first(of: fingerprint(5)) == 0)
        #expect(table.insert(fingerprint(5), occurrence: 4) == 0)
        #expect(table.count == 1)
    }

    /// Fingerprints that differ only in the bits of the second half the table keeps are told apart; the table keys
    /// on the first 64 bits and the high 32 of the second.
    @Test func fingerprintsDifferingInTheKeptSecondBitsAreApart() {
        var table = FingerprintTable()
        let one = RowFingerprint(first: 42, second: 1 << 32)
        let other = RowFingerprint(first: 42, second: 2 << 32)
        table.insert(one, occurrence: 1)
        #expect(table.first(of: other) == nil)
        table.insert(other, occurrence: 2)
        #expect(table.first(of: one) == 1 && table.first(of: other) == 2)
    }

    /// 300,000 entries grow a 16-slot table many times, past the size that is mapped with huge pages; a table presized
    /// for 1,000 has 1,429 slots, not a power of two, and keeps every entry through its growths too.
    @Test(arguments: [0, 1_000, 300_000])
    func growingAndPresizingKeepEveryEntry(capacity: Int) {
        var table = FingerprintTable(capacity: capacity)
        for number in 0..<300_000 {
            #expect(table.insert(fingerprint(number), occurrence: Int32(number)) == nil)
            if number == 1000 { table.reserve(200_000) }
        }
        #expect(table.count == 300_000)
        var wrong = 0
        for number in 0..<300_000 {
            if table.first(of: fingerprint(number)) != Int32(number) { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(table.first(of: fingerprint(300_000)) == nil)
    }
}
