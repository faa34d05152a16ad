/// The rule a TZif file's footer gives for times after its last transition, in the POSIX `TZ` form
/// (`EST5EDT,M3.2.0,M11.1.0`): a standard offset and, when the zone keeps daylight-saving time, a daylight offset
/// and the dates it starts and ends on.
///
/// Parsed by hand from bytes, so that converting a run's time needs neither ICU nor the process-wide `TZ`
/// variable `localtime_r` reads.
struct PosixTimeZoneRule: Sendable, Hashable {
    /// A point in the year: its kind of day and the local time of day, in seconds, the change happens at.
    struct Change: Sendable, Hashable {
        enum Day: Sendable, Hashable {
            /// `Jn`: day 1...365, February 29 never counted.
            case julian(Int)
            /// `n`: day 0...365, February 29 counted in leap years.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 is Sunday) of week `w` (5 is the last) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        var day: Day
        var time: Int
    }

    /// Seconds east of UTC, and the abbreviation, of standard time.
    var standardOffset: Int
    var standardName: String
    /// The same for daylight-saving time; `nil` when the zone keeps none.
    var daylightOffset: Int?
    var daylightName: String
    var start: Change?
    var end: Change?

    /// Parses a `TZ` text; `nil` when it is not one.
    init?(_ text: String) {
        var scanner = Scanner(bytes: Array(text.utf8))
        guard let standardName = scanner.name(), let standardWest = scanner.offset() else { return nil }
        self.standardName = standardName
        standardOffset = -standardWest
        daylightName = ""
        if scanner.isAtEnd { return }
        guard let daylightName = scanner.name() else { return nil }
        self.daylightName = daylightName
        if let west = scanner.offset() {
            daylightOffset = -west
        } else {
            daylightOffset = standardOffset + 3600
        }
        guard scanner.take(UInt8(ascii: ",")), let start = scanner.change(), scanner.take(UInt8(ascii: ",")),
            let end = scanner.change(), scanner.isAtEnd
        else { return nil }
        self.start = start
        self.end = end
    }

    /// The offset east of UTC in seconds and the abbreviation in force at `seconds` since 1970 (UTC).
    func localTime(at seconds: Int64) -> (offset: Int, abbreviation: String) {
        guard let daylightOffset, let start, let end else { return (standardOffset, standardName) }
        let year = CivilDate(days: Self.floorDivide(seconds + Int64(standardOffset), 86_400)).year
        // The start is given in standard local time, the end in daylight local time.
        let starts = Self.seconds(of: start, in: year) - Int64(standardOffset)
        let ends = Self.seconds(of: end, in: year) - Int64(daylightOffset)
        let isDaylight = starts < ends ? (seconds >= starts && seconds < ends) : !(seconds >= ends && seconds < starts)
        return isDaylight ? (daylightOffset, daylightName) : (standardOffset, standardName)
    }

    /// The local seconds since 1970 of a change in `year`.
    static func seconds(of change: Change, in year: Int) -> Int64 {
        let january1 = CivilDate(year: year, month: 1, day: 1).days
        let days: Int64
        switch change.day {
        case .julian(let day):
            let leapDay = CivilDate.isLeap(year) && day >= 60 ? 1 : 0
            days = january1 + Int64(day - 1 + leapDay)
        case .zeroBased(let day):
            days = january1 + Int64(day)
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilDate(year: year, month: month, day: 1).days
            let firstWeekday = Int(floorModulo(first + 4, 7))
            var day = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let length = CivilDate.daysIn(month: month, year: year)
            while day > length { day -= 7 }
            days = first + Int64(day - 1)
        }
        return days * 86_400 + Int64(change.time)
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    static func floorModulo(_ value: Int64, _ divisor: Int64) -> Int64 {
        value - floorDivide(value, divisor) * divisor
    }

    /// Reads the parts of a `TZ` text.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        static func isLetter(_ byte: UInt8) -> Bool {
            let lower = byte | 0x20
            return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
        }

        static func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        var isAtEnd: Bool { position == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// `EST`, or a quoted `<+0530>`.
        mutating func name() -> String? {
            let start = position
            if take(UInt8(ascii: "<")) {
                while position < bytes.count, bytes[position] != UInt8(ascii: ">") { position += 1 }
                guard take(UInt8(ascii: ">")), position - start > 2 else { return nil }
                return String(decoding: bytes[(start + 1)..<(position - 1)], as: UTF8.self)
            }
            while position < bytes.count, Self.isLetter(bytes[position]) { position += 1 }
            guard position - start >= 3 else {
                position = start
                return nil
            }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        /// `[+-]hh[:mm[:ss]]` in seconds (POSIX counts west of UTC as positive).
        mutating func offset() -> Int? {
            let start = position
            let sign = take(UInt8(ascii: "-")) ? -1 : 1
            if sign == 1 { _ = take(UInt8(ascii: "+")) }
            guard let hours = number() else {
                position = start
                return nil
            }
            var total = hours * 3600
            if take(UInt8(ascii: ":")) {
                guard let minutes = number() else { return nil }
                total += minutes * 60
                if take(UInt8(ascii: ":")) {
                    guard let seconds = number() else { return nil }
                    total += seconds
                }
            }
            return sign * total
        }

        mutating func number() -> Int? {
            let start = position
            var value = 0
            while position < bytes.count, Self.isDigit(bytes[position]), position - start < 4 {
                value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
                position += 1
            }
            return position > start ? value : nil
        }

        /// `Mm.w.d[/time]`, `Jn[/time]` or `n[/time]`; the time is 02:00 when not given.
        mutating func change() -> Change? {
            let day: Change.Day
            if take(UInt8(ascii: "M")) {
                guard let month = number(), take(UInt8(ascii: ".")), let week = number(), take(UInt8(ascii: ".")),
                    let weekday = number(), (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday)
                else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else if take(UInt8(ascii: "J")) {
                guard let number = number(), (1...365).contains(number) else { return nil }
                day = .julian(number)
            } else {
                guard let number = number(), (0...365).contains(number) else { return nil }
                day = .zeroBased(number)
            }
            var time = 7200
            if take(UInt8(ascii: "/")) {
                guard let given = offset() else { return nil }
                time = given
            }
            return Change(day: day, time: time)
        }
    }
}
