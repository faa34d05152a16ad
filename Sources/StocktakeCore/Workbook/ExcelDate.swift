/// Excel's date serial numbers as ISO 8601 text.
///
/// A workbook stores a date as the number of days since its epoch, the fraction being the time of day.
/// In the 1900 system (the default) day 1 is 1900-01-01 and day 60 is 1900-02-29, a day that never was but that
/// Excel counts (Lotus 1-2-3 thought 1900 a leap year), so every later serial is one day "late". In the 1904
/// system (old Mac workbooks, `workbookPr date1904`) day 0 is 1904-01-01.
enum ExcelDate {
    /// The workbook's date system.
    enum System: Sendable {
        case from1900
        case from1904
    }

    /// Appends the date of `serial` to `output` as `YYYY-MM-DD`, followed by `THH:MM:SS` only when it has a time
    /// of day (rounded to the second); a time alone (a 1900-system serial below 1) is `HH:MM:SS`.
    /// Returns false, appending nothing, for a serial outside 0001–9999 or below the epoch.
    static func append(serial: Double, system: System, to output: inout [UInt8]) -> Bool {
        guard serial.isFinite, serial >= 0, serial < 2_958_466 + 1462 else { return false }
        let totalSeconds = Int((serial * 86_400).rounded())
        let days = totalSeconds / 86_400
        let seconds = totalSeconds % 86_400
        let year: Int
        let month: Int
        let day: Int
        switch system {
        case .from1900:
            if days == 0 {
                appendTime(seconds, to: &output)
                return true
            } else if days == 60 {
                (year, month, day) = (1900, 2, 29)
            } else {
                // 1899-12-31 is day 0 before the phantom leap day, 1899-12-30 after it.
                (year, month, day) = civilDate(daysSince1970: days + (days < 60 ? -25_568 : -25_569))
            }
        case .from1904:
            (year, month, day) = civilDate(daysSince1970: days - 24_107)
        }
        guard year <= 9999 else { return false }
        appendDigits(year, width: 4, to: &output)
        output.append(UInt8(ascii: "-"))
        appendDigits(month, width: 2, to: &output)
        output.append(UInt8(ascii: "-"))
        appendDigits(day, width: 2, to: &output)
        if seconds > 0 {
            output.append(UInt8(ascii: "T"))
            appendTime(seconds, to: &output)
        }
        return true
    }

    /// The date as a string (for tests), or nil when `append` refuses it.
    static func text(serial: Double, system: System) -> String? {
        var output: [UInt8] = []
        guard append(serial: serial, system: system, to: &output) else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    private static func appendTime(_ seconds: Int, to output: inout [UInt8]) {
        appendDigits(seconds / 3600, width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendDigits(seconds / 60 % 60, width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendDigits(seconds % 60, width: 2, to: &output)
    }

    private static func appendDigits(_ value: Int, width: Int, to output: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// The proleptic Gregorian date `days` after 1970-01-01.
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let date = CivilDate(days: Int64(days))
        return (date.year, date.month, date.day)
    }
}
