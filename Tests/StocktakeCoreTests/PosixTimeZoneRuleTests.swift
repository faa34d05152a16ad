import Testing

@testable import StocktakeCore

@Suite("PosixTimeZoneRule: a TZif footer's rule")
struct PosixTimeZoneRuleTests {
    @Test func newYorksRuleIsParsed() throws {
        let rule = try #require(PosixTimeZoneRule("EST5EDT,M3.2.0,M11.1.0"))
        #expect(rule.standardOffset == -18_000)
        #expect(rule.daylightOffset == -14_400)
        #expect(rule.standardName == "EST")
        #expect(rule.daylightName == "EDT")
        #expect(rule.start == .init(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200))
        // 2026-03-08 is the second Sunday of March.
        #expect(
            PosixTimeZoneRule.seconds(of: rule.start!, in: 2026) == CivilDate(year: 2026, month: 3, day: 8).days
                * 86_400 + 7200)
        #expect(rule.localTime(at: 1_772_953_199) == (-18_000, "EST"))
        #expect(rule.localTime(at: 1_772_953_200) == (-14_400, "EDT"))
    }

    @Test func quotedNamesFixedZonesAndSouthernRules() throws {
        let fixed = try #require(PosixTimeZoneRule("<+0530>-5:30"))
        #expect(fixed.standardName == "+0530")
        #expect(fixed.standardOffset == 19_800)
        #expect(fixed.localTime(at: 0) == (19_800, "+0530"))
        let sydney = try #require(PosixTimeZoneRule("AEST-10AEDT,M10.1.0,M4.1.0/3"))
        // January is summer in Sydney, July winter.
        #expect(sydney.localTime(at: 1_768_496_400).abbreviation == "AEDT")
        #expect(sydney.localTime(at: 1_784_131_200).abbreviation == "AEST")
        let julian = try #require(PosixTimeZoneRule("XST3XDT,J60/0,300"))
        #expect(julian.start == .init(day: .julian(60), time: 0))
        #expect(julian.end == .init(day: .zeroBased(300), time: 7200))
    }

    @Test(arguments: ["", "E5", "EST", "EST5EDT,M13.1.0,M11.1.0", "EST5EDT,M3.2.0", "<+05", "EST5EDT,M3.2.0,M11.1.0x"])
    func malformedRulesAreRefused(text: String) {
        #expect(PosixTimeZoneRule(text) == nil)
    }
}
