import Testing

@testable import StocktakeGenerator

@Suite struct CalendarDayTests {
    @Test func spreadsheetSerialCountsFromDecember30Of1899() {
        #expect(CalendarDay(year: 2014, month: 7, day: 1)!.spreadsheetSerial == 41_821)
        #expect(CalendarDay(year: 1970, month: 1, day: 1)!.spreadsheetSerial == 25_569)
    }

    @Test func daysSinceEpochRoundTrips() {
        let day = CalendarDay(year: 2026, month: 11, day: 20)!
        #expect(day.daysSinceEpoch == 20_777)
        #expect(CalendarDay(daysSinceEpoch: 20_777) == day)
        #expect(
            CalendarDay(year: 2024, month: 2, day: 29)!.adding(days: 366) == CalendarDay(year: 2025, month: 3, day: 1))
        #expect(day.adding(days: -365) == CalendarDay(year: 2025, month: 11, day: 20))
    }

    @Test func textForms() {
        let day = CalendarDay(year: 2025, month: 3, day: 7)!
        #expect(day.iso == "2025-03-07")
        #expect(day.usLong == "3/7/2025")
        #expect(day.usShort == "3/7/25")
    }

    @Test func impossibleDaysAreRejected() {
        #expect(CalendarDay(year: 2025, month: 13, day: 1) == nil)
        #expect(CalendarDay(year: 2025, month: 2, day: 29) == nil)
        #expect(CalendarDay(iso: "2026-11-20") == CalendarDay(year: 2026, month: 11, day: 20))
        #expect(CalendarDay(iso: "2026-11-31") == nil)
        #expect(CalendarDay(iso: "11/20/2026") == nil)
    }
}
