import Testing

@testable import StocktakeCore

struct FingerprintTableTests {
    func fingerprint(_ number: Int) -> RowFingerprint {
        RowFingerprintTests.fingerprint(cells: [Array(String(number).utf8)])
    }

    @Test func theFirstOccurrenceIsKept() {
        var table = FingerprintTable()
        #expect(table.first(of: fingerprint(1)) == nil)
        #expect(table.insert(fingerprint(1), record: 0, row: 3) == nil)
        let again = table.insert(fingerprint(1), record: 7, row: 9)
        #expect(again?.record == 0 && again?.row == 3)
        let found = table.first(of: fingerprint(1))
        #expect(found?.record == 0 && found?.row == 3)
        #expect(table.count == 1)
        #expect(table.first(of: fingerprint(2)) == nil)
    }

    @Test func recordsThatWereNotKeptAreMinusOne() {
        var table = FingerprintTable()
        table.insert(fingerprint(5), record: -1, row: 1)
        #expect(table.first(of: fingerprint(5))?.record == -1)
    }

    /// 300,000 entries grow a 16-slot table many times, past the size that is mapped with huge pages; a table presized
    /// for 1,000 has 1,429 slots, not a power of two, and keeps every entry through its growths too.
    @Test(arguments: [0, 1_000, 300_000])
    func growingAndPresizingKeepEveryEntry(capacity: Int) {
        var table = FingerprintTable(capacity: capacity)
        for number in 0..<300_000 {
            #expect(table.insert(fingerprint(number), record: Int32(number), row: Int32(number + 1)) == nil)
            if number == 1000 { table.reserve(200_000) }
        }
        #expect(table.count == 300_000)
        var wrong = 0
        for number in 0..<300_000 {
            let found = table.first(of: fingerprint(number))
            if found?.record != Int32(number) || found?.row != Int32(number + 1) { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(table.first(of: fingerprint(300_000)) == nil)
    }
}
