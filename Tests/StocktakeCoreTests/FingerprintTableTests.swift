import Testing

@testable import StocktakeCore

struct FingerprintTableTests {
    func fingerprint(_ number: Int) -> RowFingerprint {
        RowFingerprintTests.fingerprint(cells: [Array(String(number).utf8)])
    }

    /// What a reader does with a row: looks it up, and inserts it at the place found when it is new; the first
    /// occurrence already there otherwise.
    func take(_ fingerprint: RowFingerprint, _ occurrence: Int32, into table: inout FingerprintTable) -> Int32? {
        let place = table.place(of: fingerprint)
        if let first = place.first { return first }
        table.insert(fingerprint, occurrence: occurrence, at: place)
        return nil
    }

    @Test func theFirstOccurrenceIsKept() {
        var table = FingerprintTable()
        #expect(table.place(of: fingerprint(1)).first == nil)
        #expect(take(fingerprint(1), 3, into: &table) == nil)
        #expect(take(fingerprint(1), 9, into: &table) == 3)
        #expect(table.place(of: fingerprint(1)).first == 3)
        #expect(table.count == 1)
        #expect(table.place(of: fingerprint(2)).first == nil)
    }

    /// A row is looked for once: the place a lookup found empty takes the insert, and a later lookup finds it there.
    @Test func aPlaceFoundEmptyTakesTheInsert() {
        var table = FingerprintTable()
        let place = table.place(of: fingerprint(7))
        #expect(place.first == nil)
        table.insert(fingerprint(7), occurrence: 2, at: place)
        #expect(table.place(of: fingerprint(7)).first == 2)
        #expect(table.place(of: fingerprint(8)).first == nil)
        #expect(table.count == 1)
    }

    /// Occurrence 0 (the first record) is an occurrence, not an empty slot.
    @Test func occurrenceZeroIsFound() {
        var table = FingerprintTable()
        #expect(take(fingerprint(5), 0, into: &table) == nil)
        #expect(table.place(of: fingerprint(5)).first == 0)
        #expect(take(fingerprint(5), 4, into: &table) == 0)
        #expect(table.count == 1)
    }

    /// The table keys on the fingerprint's first 64 bits and the high 32 of its second: fingerprints that differ in
    /// those are told apart, and ones that differ only in the low 32 bits of the second are taken as one.
    @Test func theKeyIsNinetySixBitsOfTheFingerprint() {
        var table = FingerprintTable()
        let one = RowFingerprint(first: 42, second: 1 << 32)
        let other = RowFingerprint(first: 42, second: 2 << 32)
        let sameKey = RowFingerprint(first: 42, second: 1 << 32 | 7)
        #expect(take(one, 1, into: &table) == nil)
        #expect(take(other, 2, into: &table) == nil)
        #expect(table.place(of: one).first == 1 && table.place(of: other).first == 2)
        #expect(take(sameKey, 3, into: &table) == 1)
        #expect(table.count == 2)
    }

    /// 300,000 entries grow a 16-slot table many times, past the size that is mapped with huge pages; a table presized
    /// for 1,000 has 1,429 slots, not a power of two, and keeps every entry through its growths too.
    @Test(arguments: [0, 1_000, 300_000])
    func growingAndPresizingKeepEveryEntry(capacity: Int) {
        var table = FingerprintTable(capacity: capacity)
        for number in 0..<300_000 {
            #expect(take(fingerprint(number), Int32(number), into: &table) == nil)
            if number == 1000 { table.reserve(200_000) }
        }
        #expect(table.count == 300_000)
        var wrong = 0
        for number in 0..<300_000 where table.place(of: fingerprint(number)).first != Int32(number) { wrong += 1 }
        #expect(wrong == 0)
        #expect(table.place(of: fingerprint(300_000)).first == nil)
    }
}
