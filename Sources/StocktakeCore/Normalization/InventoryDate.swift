import Foundation

/// A calendar day, stored as days since 1970-01-01 (proleptic Gregorian, no time zone).
///
/// Used for `last_seen`: sheets write dates as ISO dates or date-times, US `M/D/YYYY`, two-digit years, or
/// spreadsheet date serials; all of them become one day, and days compare and subtract as integers.
public struct InventoryDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01; negative before it.
    public let daysSinceEpoch: Int32

    /// The day `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch: Int32) {
        self.daysSinceEpoch = daysSinceEpoch
    }

    /// The given calendar day, or `nil` when there is no such day (February 30, month 13, year 0).
    /// Years run from 1 to 9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.daysIn(month: month, year: year)).contains(day)
        else {
            return nil
        }
        daysSinceEpoch = Int32(Self.days(year: year, month: month, day: day))
    }

    /// The year, such as 2024.
    public var year: Int { civil.year }
    /// The month, from 1 (January) to 12.
    public var month: Int { civil.month }
    /// The day of the month, from 1.
    public var day: Int { civil.day }

    /// The ISO form, `YYYY-MM-DD`.
    public var description: String {
        let (year, month, day) = civil
        return Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2)
    }

    /// The day `days` days later (earlier when negative).
    public func adding(days: Int) -> InventoryDate {
        InventoryDate(daysSinceEpoch: Int32(Int(daysSinceEpoch) + days))
    }

    /// The number of days from `rhs` to `lhs`; positive when `lhs` is later.
    public static func - (lhs: InventoryDate, rhs: InventoryDate) -> Int {
        Int(lhs.daysSinceEpoch) - Int(rhs.daysSinceEpoch)
    }

    /// Orders days chronologically.
    public static func < (lhs: InventoryDate, rhs: InventoryDate) -> Bool {
        lhs.daysSinceEpoch < rhs.daysSinceEpoch
    }

    /// Parses exactly `YYYY-MM-DD` (no blanks, no time), as given on the command line; `nil` otherwise.
    public static func parseISO(_ text: String) -> InventoryDate? {
        CellText.withBytes(of: text) { bytes in
            guard bytes.count == 10, let date = isoDate(bytes, from: bytes.startIndex) else {
                return nil
            }
            return date.value
        }
    }

    /// Today's date in UTC.
    public static func today() -> InventoryDate {
        let seconds = Date().timeIntervalSince1970
        return InventoryDate(daysSinceEpoch: Int32((seconds / 86_400).rounded(.down)))
    }

    /// Reads a date from raw cell bytes.
    ///
    /// Accepts an ISO date `YYYY-MM-DD`; an ISO date-time (`2024-03-05T10:22:00Z`,
    /// `2024-03-05T10:22:00.123+02:00`, `2024-03-05 10:22`), whose date part is taken as written, without
    /// time-zone shifting; US `M/D/YYYY` and `M/D/YY` (years 00–69 are 2000–2069, 70–99 are 1970–1999),
    /// optionally followed by a space and a time (`3/5/2024 10:22:05 AM`); and a spreadsheet date serial, a
    /// plain number from 1 to 2958465 counted in days from 1899-12-30 (any fraction, the time of day, is
    /// dropped). Blanks and placeholders are `.empty`; impossible dates and anything else are `.invalid`.
    ///
    /// Serials are plain day counts, so 44197 is 2021-01-01 and 60 is 1900-02-28. Excel shows serials below 61
    /// one day later, because it counts a February 29, 1900 that never was; real inventory dates are far later.
    /// A four-digit number such as `2024` is read as a serial too, as a spreadsheet would.
    public static func normalize(_ cell: UnsafeBufferPointer<UInt8>) -> Normalized<InventoryDate> {
        let trimmed = ByteTrim.trimmed(cell)
        if let date = commonForm(trimmed) { return .value(date) }
        return inFull(trimmed)
    }

    /// Reads a trimmed cell by every rule of `normalize`.
    static func inFull(_ trimmed: UnsafeBufferPointer<UInt8>) -> Normalized<InventoryDate> {
        if Placeholder.isEmptyOrPlaceholder(trimmed) {
            return .empty
        }
        let start = trimmed.startIndex
        if trimmed.count >= 5 && CellText.isDigit(trimmed[start]) && trimmed[start + 4] == UInt8(ascii: "-") {
            return isoDateTime(trimmed)
        }
        if trimmed.contains(UInt8(ascii: "/")) {
            return usDateTime(trimmed)
        }
        if trimmed.allSatisfy({ CellText.isDigit($0) || $0 == UInt8(ascii: ".") }) {
            return serial(trimmed)
        }
        return .invalid(reason: notADate)
    }

    /// The day of a trimmed cell in one of the forms sheets write nearly every date in, `YYYY-MM-DD`,
    /// `YYYY-MM-DD HH:MM:SS` (or with `T`) and `M/D/YYYY` (one or two digits for month and day), when it is a real
    /// day and time; `nil` for anything else, which `inFull` reads. Nearly every date cell is one of these, and
    /// reading them by their fixed places skips the search for the form and the general digit runs.
    @inline(__always)
    static func commonForm(_ bytes: UnsafeBufferPointer<UInt8>) -> InventoryDate? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        // The value of the digit at `offset`, or 10 and more when the byte is not a digit.
        func digit(_ offset: Int) -> Int { Int(base[offset] &- UInt8(ascii: "0")) }
        let year: Int
        let month: Int
        let day: Int
        if count == 10 || count == 19, base[4] == UInt8(ascii: "-"), base[7] == UInt8(ascii: "-") {
            let digits = (digit(0), digit(1), digit(2), digit(3), digit(5), digit(6), digit(8), digit(9))
            guard
                digits.0 < 10 && digits.1 < 10 && digits.2 < 10 && digits.3 < 10 && digits.4 < 10 && digits.5 < 10
                    && digits.6 < 10 && digits.7 < 10
            else { return nil }
            year = ((digits.0 * 10 + digits.1) * 10 + digits.2) * 10 + digits.3
            month = digits.4 * 10 + digits.5
            day = digits.6 * 10 + digits.7
            if count == 19 {
                let separator = base[10]
                guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == 0x20,
                    base[13] == UInt8(ascii: ":"), base[16] == UInt8(ascii: ":")
                else { return nil }
                let time = (digit(11), digit(12), digit(14), digit(15), digit(17), digit(18))
                guard time.0 < 10 && time.1 < 10 && time.2 < 10 && time.3 < 10 && time.4 < 10 && time.5 < 10,
                    time.0 * 10 + time.1 < 24, time.2 * 10 + time.3 < 60, time.4 * 10 + time.5 <= 60
                else { return nil }
            }
        } else if count >= 8 && count <= 10 {
            // M/D/YYYY: the month's slash is its second or third byte, the day's one or two bytes later.
            let monthSlash = base[1] == UInt8(ascii: "/") ? 1 : 2
            let daySlash = count - 5
            guard base[monthSlash] == UInt8(ascii: "/"), base[daySlash] == UInt8(ascii: "/"),
                daySlash - monthSlash == 2 || daySlash - monthSlash == 3
            else { return nil }
            let firstMonth = digit(0)
            let lastMonth = digit(monthSlash - 1)
            let firstDay = digit(monthSlash + 1)
            let lastDay = digit(daySlash - 1)
            let years = (digit(count - 4), digit(count - 3), digit(count - 2), digit(count - 1))
            guard firstMonth < 10 && lastMonth < 10 && firstDay < 10 && lastDay < 10,
                years.0 < 10 && years.1 < 10 && years.2 < 10 && years.3 < 10
            else { return nil }
            month = monthSlash == 1 ? firstMonth : firstMonth * 10 + lastMonth
            day = daySlash - monthSlash == 2 ? firstDay : firstDay * 10 + lastDay
            year = ((years.0 * 10 + years.1) * 10 + years.2) * 10 + years.3
        } else {
            return nil
        }
        return InventoryDate(year: year, month: month, day: day)
    }

    /// Reads a date from text, with the same rules as the byte overload.
    public static func normalize(_ text: String) -> Normalized<InventoryDate> {
        CellText.withBytes(of: text) { normalize($0) }
    }

    /// The reason given for text that is not in any date form.
    private static let notADate = "is not a date (use YYYY-MM-DD or M/D/YYYY)"

    /// The first and last spreadsheet date serials accepted (1899-12-31 and 9999-12-31).
    private static let serialRange: ClosedRange<Int> = 1...2_958_465

    /// Days from 1970-01-01 back to 1899-12-30, day 0 of spreadsheet date serials.
    private static let serialEpochOffset = -25_569

    // MARK: Forms

    /// `YYYY-MM-DD`, optionally followed by `T` or a space and a time.
    private static func isoDateTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Normalized<InventoryDate> {
        guard let date = isoDate(bytes, from: bytes.startIndex) else {
            return .invalid(reason: notADate)
        }
        let timeStart = bytes.startIndex + 10
        if timeStart == bytes.endIndex {
            return date
        }
        let separator = bytes[timeStart]
        guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == 0x20,
            isTime(bytes, from: timeStart + 1, allowsZone: true, allowsMeridiem: false)
        else {
            return .invalid(reason: "has a date followed by something that is not a time")
        }
        return date
    }

    /// The date in `YYYY-MM-DD` at `start`, ignoring what follows; `nil` when the digits and dashes are not there,
    /// an invalid result when they are but the date does not exist.
    private static func isoDate(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Normalized<InventoryDate>? {
        guard bytes.endIndex - start >= 10, bytes[start + 4] == UInt8(ascii: "-"),
            bytes[start + 7] == UInt8(ascii: "-"),
            let year = number(bytes, start..<start + 4), let month = number(bytes, start + 5..<start + 7),
            let day = number(bytes, start + 8..<start + 10)
        else {
            return nil
        }
        return checkedDate(year: year, month: month, day: day)
    }

    /// `M/D/YYYY` or `M/D/YY` (one or two digits for month and day), optionally followed by a space and a time.
    private static func usDateTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Normalized<InventoryDate> {
        var index = bytes.startIndex
        guard let month = digitRun(bytes, &index, minimum: 1, maximum: 2), skip(bytes, &index, UInt8(ascii: "/")),
            let day = digitRun(bytes, &index, minimum: 1, maximum: 2), skip(bytes, &index, UInt8(ascii: "/"))
        else {
            return .invalid(reason: notADate)
        }
        let yearStart = index
        guard var year = digitRun(bytes, &index, minimum: 2, maximum: 4), index - yearStart != 3 else {
            return .invalid(reason: notADate)
        }
        if index - yearStart == 2 {
            year += year < 70 ? 2000 : 1900
        }
        if index < bytes.endIndex {
            guard bytes[index] == 0x20, isTime(bytes, from: index + 1, allowsZone: false, allowsMeridiem: true) else {
                return .invalid(reason: "has a date followed by something that is not a time")
            }
        }
        return checkedDate(year: year, month: month, day: day)
    }

    /// A spreadsheet date serial: digits with an optional fraction.
    private static func serial(_ bytes: UnsafeBufferPointer<UInt8>) -> Normalized<InventoryDate> {
        var index = bytes.startIndex
        guard let whole = digitRun(bytes, &index, minimum: 1, maximum: 18) else {
            return .invalid(reason: notADate)
        }
        if index < bytes.endIndex {
            index += 1  // the dot; the fraction is the time of day
            while index < bytes.endIndex && CellText.isDigit(bytes[index]) {
                index += 1
            }
            if index != bytes.endIndex {
                return .invalid(reason: notADate)
            }
        }
        guard serialRange.contains(whole) else {
            return .invalid(
                reason: "is outside the spreadsheet date serials (1 to 2958465, days since 1899-12-30)")
        }
        return .value(InventoryDate(daysSinceEpoch: Int32(whole + serialEpochOffset)))
    }

    /// A time `H:MM`, `H:MM:SS` or `H:MM:SS.fff` at `start`, running to the end of `bytes`, optionally followed
    /// by a zone (`Z`, `+02:00`, `-0500`) or by `AM`/`PM` (with or without a space).
    private static func isTime(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, allowsZone: Bool, allowsMeridiem: Bool
    ) -> Bool {
        var index = start
        guard let hour = digitRun(bytes, &index, minimum: 1, maximum: 2), skip(bytes, &index, UInt8(ascii: ":")),
            let minute = digitRun(bytes, &index, minimum: 2, maximum: 2), minute < 60
        else {
            return false
        }
        if skip(bytes, &index, UInt8(ascii: ":")) {
            guard let second = digitRun(bytes, &index, minimum: 2, maximum: 2), second <= 60 else {
                return false
            }
            if skip(bytes, &index, UInt8(ascii: ".")) {
                guard digitRun(bytes, &index, minimum: 1, maximum: 9) != nil else {
                    return false
                }
            }
        }
        if index == bytes.endIndex {
            return hour < 24
        }
        if allowsMeridiem {
            _ = skip(bytes, &index, 0x20)
            if bytes.endIndex - index == 2 && bytes[index + 1] | 0x20 == UInt8(ascii: "m") {
                let letter = bytes[index] | 0x20
                return (letter == UInt8(ascii: "a") || letter == UInt8(ascii: "p")) && (1...12).contains(hour)
            }
            return false
        }
        guard allowsZone, hour < 24 else {
            return false
        }
        if bytes[index] | 0x20 == UInt8(ascii: "z") {
            return index + 1 == bytes.endIndex
        }
        guard skip(bytes, &index, UInt8(ascii: "+")) || skip(bytes, &index, UInt8(ascii: "-")),
            let zoneHour = twoDigits(bytes, &index), zoneHour <= 18
        else {
            return false
        }
        if index == bytes.endIndex {
            return true
        }
        _ = skip(bytes, &index, UInt8(ascii: ":"))
        guard let zoneMinute = twoDigits(bytes, &index), zoneMinute < 60 else {
            return false
        }
        return index == bytes.endIndex
    }

    // MARK: Calendar arithmetic

    /// The date when it exists, otherwise an invalid result saying which part is wrong.
    private static func checkedDate(year: Int, month: Int, day: Int) -> Normalized<InventoryDate> {
        guard (1...9999).contains(year) else {
            return .invalid(reason: "has year \(year); years run from 1 to 9999")
        }
        guard (1...12).contains(month) else {
            return .invalid(reason: "has month \(month); months run from 1 to 12")
        }
        guard day >= 1 else {
            return .invalid(reason: "has day \(day); days of the month start at 1")
        }
        let length = daysIn(month: month, year: year)
        guard day <= length else {
            return .invalid(reason: "has day \(day), but \(monthNames[month - 1]) \(year) has \(length) days")
        }
        return .value(InventoryDate(daysSinceEpoch: Int32(days(year: year, month: month, day: day))))
    }

    /// English month names, for reasons.
    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// How many days `month` has in `year`.
    static func daysIn(month: Int, year: Int) -> Int { CivilDate.daysIn(month: month, year: year) }

    /// Days since 1970-01-01 of a valid calendar day.
    static func days(year: Int, month: Int, day: Int) -> Int {
        Int(CivilDate(year: year, month: month, day: day).days)
    }

    /// The calendar day of this date.
    private var civil: (year: Int, month: Int, day: Int) {
        let date = CivilDate(days: Int64(daysSinceEpoch))
        return (date.year, date.month, date.day)
    }

    // MARK: Byte scanning

    /// The value of the digits in `range`, or `nil` if any byte is not a digit.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var value = 0
        for index in range {
            guard CellText.isDigit(bytes[index]) else {
                return nil
            }
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
        }
        return value
    }

    /// Reads a run of `minimum` to `maximum` digits at `index` and moves past it; `nil` (without moving)
    /// when the run is shorter or longer.
    private static func digitRun(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, minimum: Int, maximum: Int)
        -> Int?
    {
        var end = index
        while end < bytes.endIndex && CellText.isDigit(bytes[end]) {
            end += 1
        }
        guard (minimum...maximum).contains(end - index), let value = number(bytes, index..<end) else {
            return nil
        }
        index = end
        return value
    }

    /// Reads exactly two digits at `index`, whatever follows them, and moves past them; `nil` (without moving)
    /// when there are not two digits there.
    private static func twoDigits(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Int? {
        guard bytes.endIndex - index >= 2, let value = number(bytes, index..<index + 2) else {
            return nil
        }
        index += 2
        return value
    }

    /// Moves past `byte` when it is at `index`; false (without moving) otherwise.
    private static func skip(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ byte: UInt8) -> Bool {
        guard index < bytes.endIndex, bytes[index] == byte else {
            return false
        }
        index += 1
        return true
    }

    /// `value` in decimal, left-padded with zeros to `width`.
    private static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.utf8.count >= width ? text : String(repeating: "0", count: width - text.utf8.count) + text
    }
}
