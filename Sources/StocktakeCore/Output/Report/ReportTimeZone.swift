import Foundation

/// The time zone an account's report states its run time in (`timeZone` in `account.json`): an IANA name such as
/// `America/New_York`, read from the system's TZif file under `/usr/share/zoneinfo`.
///
/// The file is parsed here, transitions and footer rule both, rather than through Foundation's `TimeZone` (which
/// loads ICU, left out of the static build) or `localtime_r` (which reads the process-wide `TZ` variable, unsafe to
/// change while other threads run).
public struct ReportTimeZone: Sendable, Hashable {
    /// One kind of local time the zone uses: its offset east of UTC in seconds and its abbreviation.
    struct LocalTimeType: Sendable, Hashable {
        var offset: Int
        var abbreviation: String
    }

    /// The zone's IANA name (`UTC` for the default).
    public let name: String
    /// The instants (seconds since 1970, UTC) the local time changes at, ascending, and the type that starts at each.
    let transitions: [Int64]
    let transitionTypes: [Int]
    let types: [LocalTimeType]
    /// The rule after the last transition.
    let rule: PosixTimeZoneRule?

    /// Coordinated Universal Time, the default.
    public static let utc = ReportTimeZone(
        name: "UTC", transitions: [], transitionTypes: [], types: [LocalTimeType(offset: 0, abbreviation: "UTC")],
        rule: nil)

    /// The folder the system keeps its TZif files in.
    public static let zoneInfoFolder = "/usr/share/zoneinfo"

    init(
        name: String, transitions: [Int64], transitionTypes: [Int], types: [LocalTimeType], rule: PosixTimeZoneRule?
    ) {
        self.name = name
        self.transitions = transitions
        self.transitionTypes = transitionTypes
        self.types = types
        self.rule = rule
    }

    /// The zone named `name`, read from `folder`; `nil` when the name is not a zone name or no zone file of that
    /// name can be read. `UTC` needs no file.
    public init?(named name: String, folder: String = ReportTimeZone.zoneInfoFolder) {
        guard Self.isZoneName(name) else { return nil }
        let path = (folder as NSString).appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: path) else {
            if name == "UTC" {
                self = .utc
                return
            }
            return nil
        }
        self.init(name: name, tzif: Array(data))
    }

    /// The zone of the TZif file `bytes`; `nil` when they are not one.
    init?(name: String, tzif bytes: [UInt8]) {
        guard bytes.count >= 44, bytes.starts(with: Array("TZif".utf8)) else { return nil }
        func count(_ header: Int, _ index: Int) -> Int? {
            let start = header + 20 + index * 4
            guard start + 4 <= bytes.count else { return nil }
            return Int(Self.bigEndian(bytes, at: start, width: 4))
        }
        var header = 0
        var timeWidth = 4
        if bytes[4] >= UInt8(ascii: "2") {
            // Skip the 32-bit block: the 64-bit one follows with its own header.
            guard let utcCount = count(0, 0), let standardCount = count(0, 1), let leapCount = count(0, 2),
                let timeCount = count(0, 3), let typeCount = count(0, 4), let characterCount = count(0, 5)
            else { return nil }
            header = 44 + timeCount * 5 + typeCount * 6 + characterCount + leapCount * 8 + standardCount + utcCount
            timeWidth = 8
            guard header + 44 <= bytes.count, bytes[header..<(header + 4)].elementsEqual("TZif".utf8) else {
                return nil
            }
        }
        guard let utcCount = count(header, 0), let standardCount = count(header, 1), let leapCount = count(header, 2),
            let timeCount = count(header, 3), let typeCount = count(header, 4),
            let characterCount = count(header, 5), typeCount > 0
        else { return nil }
        var position = header + 44
        let blockEnd =
            position + timeCount * (timeWidth + 1) + typeCount * 6 + characterCount + leapCount * (timeWidth + 4)
            + standardCount + utcCount
        guard blockEnd <= bytes.count else { return nil }
        var transitions: [Int64] = []
        transitions.reserveCapacity(timeCount)
        for index in 0..<timeCount {
            transitions.append(Self.signed(bytes, at: position + index * timeWidth, width: timeWidth))
        }
        position += timeCount * timeWidth
        let transitionTypes = bytes[position..<(position + timeCount)].map { Int($0) }
        guard transitionTypes.allSatisfy({ $0 < typeCount }) else { return nil }
        position += timeCount
        let charactersStart = position + typeCount * 6
        var types: [LocalTimeType] = []
        for index in 0..<typeCount {
            let record = position + index * 6
            let offset = Int(Self.signed(bytes, at: record, width: 4))
            guard Int(bytes[record + 5]) < characterCount else { return nil }
            var end = charactersStart + Int(bytes[record + 5])
            let start = end
            while end < charactersStart + characterCount, bytes[end] != 0 { end += 1 }
            types.append(
                LocalTimeType(offset: offset, abbreviation: String(decoding: bytes[start..<end], as: UTF8.self)))
        }
        var rule: PosixTimeZoneRule?
        if timeWidth == 8, blockEnd < bytes.count, bytes[blockEnd] == ASCII.lineFeed {
            let footer = bytes[(blockEnd + 1)...].prefix { $0 != ASCII.lineFeed }
            rule = PosixTimeZoneRule(String(decoding: footer, as: UTF8.self))
        }
        self.init(name: name, transitions: transitions, transitionTypes: transitionTypes, types: types, rule: rule)
    }

    /// Whether `name` has the form of an IANA zone name (`America/New_York`, `Etc/GMT+5`, `UTC`): path parts of
    /// letters, digits, `_`, `-` and `+`, none empty or starting with a dot, so that it names a file under the zone
    /// folder and nothing outside it.
    public static func isZoneName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255 else { return false }
        for part in name.split(separator: "/", omittingEmptySubsequences: false) {
            guard let first = part.utf8.first, first != UInt8(ascii: "."), first != UInt8(ascii: "-") else {
                return false
            }
            for byte in part.utf8 {
                let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
                guard
                    isLetter || isDigit || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                        || byte == UInt8(ascii: "+")
                else { return false }
            }
        }
        return true
    }

    /// The offset east of UTC in seconds and the abbreviation in force at `date`.
    public func localTime(at date: Date) -> (offset: Int, abbreviation: String) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        if let last = transitions.last, seconds >= last, let rule {
            return rule.localTime(at: seconds)
        }
        if transitions.isEmpty, let rule { return rule.localTime(at: seconds) }
        guard let first = transitions.first, seconds >= first else {
            let type = types[0]
            return (type.offset, type.abbreviation)
        }
        // The last transition at or before `seconds`.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= seconds { low = middle } else { high = middle - 1 }
        }
        let type = types[transitionTypes[low]]
        return (type.offset, type.abbreviation)
    }

    /// `date` as local time in this zone, to the minute, with its abbreviation: `2026-11-20 01:00 EST`.
    public func format(_ date: Date) -> String {
        let (offset, abbreviation) = localTime(at: date)
        let local = Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(offset)
        let day = CivilDate(days: PosixTimeZoneRule.floorDivide(local, 86_400))
        let secondOfDay = Int(PosixTimeZoneRule.floorModulo(local, 86_400))
        func padded(_ value: Int, _ digits: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        let zone = abbreviation.isEmpty ? Self.offsetText(offset) : abbreviation
        return "\(padded(day.year, 4))-\(padded(day.month, 2))-\(padded(day.day, 2)) "
            + "\(padded(secondOfDay / 3600, 2)):\(padded(secondOfDay / 60 % 60, 2)) \(zone)"
    }

    /// `UTC+05:30` for an offset of 19,800 seconds.
    static func offsetText(_ offset: Int) -> String {
        let minutes = abs(offset) / 60
        let hours = String(minutes / 60)
        let rest = String(minutes % 60)
        return
            "UTC\(offset < 0 ? "-" : "+")\(hours.count < 2 ? "0" + hours : hours):\(rest.count < 2 ? "0" + rest : rest)"
    }

    private static func bigEndian(_ bytes: [UInt8], at start: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in start..<(start + width) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    private static func signed(_ bytes: [UInt8], at start: Int, width: Int) -> Int64 {
        let value = bigEndian(bytes, at: start, width: width)
        return width == 8 ? Int64(bitPattern: value) : Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: value)))
    }
}
