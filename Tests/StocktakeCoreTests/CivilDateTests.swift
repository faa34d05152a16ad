import Testing

@testable import StocktakeCore

@Suite("CivilDate: days since 1970 and back")
struct CivilDateTests {
    @Test func knownDaysConvertBothWays() {
        #expect(CivilDate(year: 1970, month: 1, day: 1).days == 0)
        #expect(CivilDate(year: 2026, month: 11, day: 20).days == 20_777)
        #expect(CivilDate(days: 20_777) == CivilDate(year: 2026, month: 11, day: 20))
        #expect(CivilDate(days: -1) == CivilDate(year: 1969, month: 12, day: 31))
        #expect(CivilDate(year: 2000, month: 2, day: 29).days + 1 == CivilDate(year: 2000, month: 3, day: 1).days)
    }

    @Test func everyDayOfFourHundredYearsRoundTrips() {
        let start = CivilDate(year: 1900, month: 1, day: 1).days
        let wrong = stride(from: start, to: start + 146_097, by: 1).first { CivilDate(days: $0).days != $0 }
        #expect(wrong == nil)
    }

    @Test func leapYearsAndMonthLengths() {
        #expect(CivilDate.isLeap(2024) && CivilDate.isLeap(2000) && !CivilDate.isLeap(1900) && !CivilDate.isLeap(2026))
        #expect(CivilDate.daysIn(month: 2, year: 2024) == 29)
        #expect(CivilDate.daysIn(month: 2, year: 2026) == 28)
        #expect(CivilDate.daysIn(month: 4, year: 2026) == 30)
    }
}
