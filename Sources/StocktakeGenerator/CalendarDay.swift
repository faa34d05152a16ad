/// A calendar day (proleptic Gregorian, no time zone), with the text forms the generated sheets use.
///
/// The generator does its own date arithmetic so that its output never depends on the machine's calendar or
/// time zone.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, such as 2026.
    public let year: Int
    /// The month, from 1 to 12.
    public let month: Int
    /// The day of the month, from 1.
    public let day: Int

    /// The given day; `nil` when it does not exist (month 13, February 30) or the year is outside 1900...9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1900...9999).contains(year), (1...12).contains(month),
            (1...Self.length(ofMonth: month, inYear: year)).contains(day)
        else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch: Int) {
        var year = 1970 + daysSinceEpoch / 366
        while Self.daysBefore(year: year + 1) <= daysSinceEpoch {
            year += 1
        }
        while Self.daysBefore(year: year) > daysSinceEpoch {
            year -= 1
        }
        var remaining = daysSinceEpoch - Self.daysBefore(year: year)
        var month = 1
        while remaining >= Self.length(ofMonth: month, inYear: year) {
            remaining -= Self.length(ofMonth: month, inYear: year)
            month += 1
        }
        self.year = year
        self.month = month
        self.day = remaining + 1
    }

    /// Parses `YYYY-MM-DD`; `nil` for anything else or a day that does not exist.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else {
            return nil
        }
        self.init(year: year, month: month, day: day)
    }

    /// Days from 1970-01-01 to this day; negative before it.
    public var daysSinceEpoch: Int {
        var days = Self.daysBefore(year: year)
        for earlier in stride(from: 1, to: month, by: 1) {
            days += Self.length(ofMonth: earlier, inYear: year)
        }
        return days + day - 1
    }

    /// The day `days` days later (earlier when negative).
    public func adding(days: Int) -> CalendarDay {
        CalendarDay(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// `YYYY-MM-DD`.
    public var description: String { iso }

    /// `YYYY-MM-DD`.
    public var iso: String {
        Self.padded(year, width: 4) + "-" + Self.padded(month, width: 2) + "-" + Self.padded(day, width: 2)
    }

    /// US form `M/D/YYYY`.
    public var usLong: String { "\(month)/\(day)/\(year)" }

    /// US form with a two-digit year, `M/D/YY`.
    public var usShort: String { "\(month)/\(day)/" + Self.padded(year % 100, width: 2) }

    /// The spreadsheet date serial: days since 1899-12-30.
    public var spreadsheetSerial: Int { daysSinceEpoch + 25_569 }

    /// Orders days chronologically.
    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `value` in decimal, left-padded with zeros to `width` digits.
    static func padded(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func length(ofMonth month: Int, inYear year: Int) -> Int {
        switch month {
        case 2:
            return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11:
            return 30
        default:
            return 31
        }
    }

    /// Days from 1970-01-01 to January 1 of `year`.
    private static func daysBefore(year: Int) -> Int {
        func daysFromYearOne(_ year: Int) -> Int {
            let completed = year - 1
            return completed * 365 + completed / 4 - completed / 100 + completed / 400
        }
        return daysFromYearOne(year) - daysFromYearOne(1970)
    }
}
