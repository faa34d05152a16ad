import Testing

@testable import StocktakeCore

struct InventoryDateTests {
    @Test(arguments: [
        ("2024-03-05", "2024-03-05"),
        ("  2024-03-05 ", "2024-03-05"),
        ("2024-03-05T10:22:00Z", "2024-03-05"),
        ("2024-03-05T23:59:59.123+02:00", "2024-03-05"),
        ("2024-03-05T00:10:00-0500", "2024-03-05"),
        ("2024-03-05t10:22:00z", "2024-03-05"),
        ("2024-03-05 10:22:00", "2024-03-05"),
        ("2024-03-05 10:22", "2024-03-05"),
        ("3/5/2024", "2024-03-05"),
        ("03/05/2024", "2024-03-05"),
        ("12/31/1999", "1999-12-31"),
        ("3/5/2024 10:22", "2024-03-05"),
        ("3/5/2024 10:22:05 AM", "2024-03-05"),
        ("3/5/2024 12:00 pm", "2024-03-05"),
        ("3/5/2024 10:22:05PM", "2024-03-05"),
        ("3/5/24", "2024-03-05"),
        ("3/5/00", "2000-03-05"),
        ("3/5/69", "2069-03-05"),
        ("3/5/70", "1970-03-05"),
        ("3/5/99", "1999-03-05"),
        ("2/29/2024", "2024-02-29"),
        ("2000-02-29", "2000-02-29"),
        ("44197", "2021-01-01"),
        ("45123.75", "2023-07-16"),
        ("44197.0", "2021-01-01"),
        ("60", "1900-02-28"),
        ("61", "1900-03-01"),
        ("1", "1899-12-31"),
        ("2958465", "9999-12-31"),
    ])
    func acceptsDateForms(input: String, expected: String) {
        #expect(InventoryDate.normalize(input).value?.description == expected)
    }

    @Test(arguments: ["", "  ", "N/A", "none", "-", "TBD"])
    func placeholdersAreEmpty(input: String) {
        #expect(InventoryDate.normalize(input) == .empty)
    }

    @Test(arguments: [
        ("2/29/2023", "has day 29, but February 2023 has 28 days"),
        ("2/30/2024", "has day 30, but February 2024 has 29 days"),
        ("1900-02-29", "has day 29, but February 1900 has 28 days"),
        ("4/31/2024", "has day 31, but April 2024 has 30 days"),
        ("13/1/2024", "has month 13; months run from 1 to 12"),
        ("2024-00-10", "has month 0; months run from 1 to 12"),
        ("1/0/2024", "has day 0; days of the month start at 1"),
        ("0000-01-01", "has year 0; years run from 1 to 9999"),
        ("0", "is outside the spreadsheet date serials (1 to 2958465, days since 1899-12-30)"),
        ("2958466", "is outside the spreadsheet date serials (1 to 2958465, days since 1899-12-30)"),
        ("2024-03-05 banana", "has a date followed by something that is not a time"),
        ("2024-03-05T25:00", "has a date followed by something that is not a time"),
        ("3/5/2024 13:00 PM", "has a date followed by something that is not a time"),
        ("3/5/2024 10:61", "has a date followed by something that is not a time"),
        ("3/5/2024T10:22", "has a date followed by something that is not a time"),
        ("yesterday", "is not a date (use YYYY-MM-DD or M/D/YYYY)"),
        ("5 March 2024", "is not a date (use YYYY-MM-DD or M/D/YYYY)"),
        ("2024/03/05", "is not a date (use YYYY-MM-DD or M/D/YYYY)"),
        ("3/5/202", "is not a date (use YYYY-MM-DD or M/D/YYYY)"),
        ("3/5", "is not a date (use YYYY-MM-DD or M/D/YYYY)"),
        ("24-03-05", "is not a date (use YYYY-MM-DD or M/D/YYYY)"),
        ("2024-3-5", "is not a date (use YYYY-MM-DD or M/D/YYYY)"),
        ("-44197", "is not a date (use YYYY-MM-DD or M/D/YYYY)"),
        ("44197.5.1", "is not a date (use YYYY-MM-DD or M/D/YYYY)"),
        ("1.5E4", "is not a date (use YYYY-MM-DD or M/D/YYYY)"),
    ])
    func rejectsWithReason(input: String, reason: String) {
        #expect(InventoryDate.normalize(input) == .invalid(reason: reason))
    }

    @Test func calendarDaysRoundTripFrom1900Through2100() {
        var expected = Int32(InventoryDate(year: 1900, month: 1, day: 1)!.daysSinceEpoch)
        #expect(expected == -25_567)
        for year in 1900...2100 {
            for month in 1...12 {
                for day in 1...31 {
                    guard let date = InventoryDate(year: year, month: month, day: day) else {
                        let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
                        let length = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
                        #expect(day > length, "\(year)-\(month)-\(day) should exist")
                        continue
                    }
                    #expect(date.daysSinceEpoch == expected)
                    let back = InventoryDate(daysSinceEpoch: expected)
                    #expect(back.year == year && back.month == month && back.day == day)
                    expected += 1
                }
            }
        }
        #expect(expected == InventoryDate(year: 2101, month: 1, day: 1)!.daysSinceEpoch)
    }

    @Test func knownDaysSinceEpoch() {
        #expect(InventoryDate(year: 1970, month: 1, day: 1)?.daysSinceEpoch == 0)
        #expect(InventoryDate(year: 2000, month: 3, day: 1)?.daysSinceEpoch == 11_017)
        #expect(InventoryDate(year: 1969, month: 12, day: 31)?.daysSinceEpoch == -1)
        #expect(InventoryDate(year: 1, month: 1, day: 1)?.daysSinceEpoch == -719_162)
        #expect(InventoryDate(daysSinceEpoch: -719_162).description == "0001-01-01")
        #expect(InventoryDate(year: 9999, month: 12, day: 31)?.description == "9999-12-31")
    }

    @Test(arguments: [
        (2023, 2, 29), (2024, 2, 30), (2024, 13, 1), (2024, 0, 1), (2024, 1, 0), (0, 1, 1), (10_000, 1, 1),
    ])
    func impossibleCalendarDaysAreNil(year: Int, month: Int, day: Int) {
        #expect(InventoryDate(year: year, month: month, day: day) == nil)
    }

    @Test func arithmeticAndOrder() {
        let start = InventoryDate(year: 2024, month: 2, day: 28)!
        #expect(start.adding(days: 1).description == "2024-02-29")
        #expect(start.adding(days: 2).description == "2024-03-01")
        #expect(start.adding(days: -59).description == "2023-12-31")
        #expect(InventoryDate(year: 2025, month: 1, day: 1)! - start == 308)
        #expect(start - InventoryDate(year: 2025, month: 1, day: 1)! == -308)
        #expect(start < start.adding(days: 1))
    }

    @Test func parsesStrictISOForTheCommandLine() {
        #expect(InventoryDate.parseISO("2024-03-05")?.description == "2024-03-05")
        #expect(InventoryDate.parseISO("2024-02-30") == nil)
        #expect(InventoryDate.parseISO(" 2024-03-05") == nil)
        #expect(InventoryDate.parseISO("2024-03-05T10:00") == nil)
        #expect(InventoryDate.parseISO("3/5/2024") == nil)
        #expect(InventoryDate.parseISO("2024-3-5") == nil)
    }

    @Test func todayIsARecentDay() {
        let today = InventoryDate.today()
        #expect(today > InventoryDate(year: 2024, month: 1, day: 1)!)
        #expect(today < InventoryDate(year: 2200, month: 1, day: 1)!)
    }
    /// The dates sheets write nearly always (`YYYY-MM-DD`, with a time after a space or `T`, and `M/D/YYYY`) are read
    /// by their fixed places; every cell of those lengths, real days and times or not (month 0 or 13, February 29
    /// of a year that has none, hour 24, minute 60, a letter or another separator anywhere), gets what the rules in
    /// full give it, and the real ones are read the short way.
    @Test func theCommonFormsGiveWhatTheRulesInFullGive() {
        var random = CSVTestRandomGenerator(seed: 1_959)
        func number(_ range: ClosedRange<Int>, width: Int) -> String {
            let text = String(Int.random(in: range, using: &random))
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let noise: [UInt8] = Array("0123456789/-: Tt.xZ".utf8)
        var differing: [String] = []
        var readShort = 0
        for trial in 0..<20_000 {
            let year = number(0...9999, width: 4)
            var text: String
            switch trial % 4 {
            case 0: text = "\(year)-\(number(0...13, width: 2))-\(number(0...32, width: 2))"
            case 1:
                text =
                    "\(year)-\(number(0...13, width: 2))-\(number(0...32, width: 2))"
                    + ["T", "t", " ", "x"].randomElement(using: &random)!
                    + "\(number(0...25, width: 2)):\(number(0...61, width: 2)):\(number(0...61, width: 2))"
            case 2:
                text = "\(number(0...13, width: Int.random(in: 1...2, using: &random)))/"
                text += "\(number(0...32, width: Int.random(in: 1...2, using: &random)))/\(year)"
            default:
                text = "\(number(1...12, width: 2))/\(number(1...28, width: 2))/\(year)"
                // Two-digit years, and a year cut to three digits, are read in full only.
                if Bool.random(using: &random) { text.removeFirst(Int.random(in: 1...2, using: &random)) }
            }
            var bytes = Array(text.utf8)
            // One place in three holds something else.
            if Int.random(in: 0..<3, using: &random) == 0 {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = noise.randomElement(using: &random)!
            }
            bytes.withUnsafeBufferPointer { cell in
                let short = InventoryDate.commonForm(ByteTrim.trimmed(cell))
                let full = InventoryDate.inFull(ByteTrim.trimmed(cell))
                if short != nil { readShort += 1 }
                if let short, full != .value(short) { differing.append(String(decoding: bytes, as: UTF8.self)) }
                if InventoryDate.normalize(cell) != full { differing.append(String(decoding: bytes, as: UTF8.self)) }
            }
        }
        #expect(differing == [])
        #expect(readShort > 8_000)
    }
}
