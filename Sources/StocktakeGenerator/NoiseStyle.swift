import Foundation

/// Harmless variations of cell text: the many ways real sheets write the same value.
///
/// Every variation here normalizes back to the canonical value (or to an empty cell, for placeholders), so it
/// must never cause a discrepancy. Each function draws from the caller's generator, so the output stays
/// deterministic.
enum NoiseStyle {
    /// Values that count as an empty cell.
    static let placeholders = ["N/A", "-", "TBD", "none", "n/a", "NA"]

    /// Serial numbers that devices report when they have none; they count as an empty cell.
    static let serialPlaceholders = ["To Be Filled By O.E.M.", "0000000000"]

    /// A placeholder for an empty non-identifier cell.
    static func placeholder(random: inout SeededRandom) -> String {
        random.element(of: placeholders)
    }

    /// A tag, written canonically most of the time, otherwise with a `VT` prefix, a `.0` tail or padding.
    static func tag(_ tag: Int, digits: Int, rate: Double, random: inout SeededRandom) -> String {
        let canonical = CanonicalForm.tag(tag, digits: digits)
        guard random.chance(rate) else {
            return canonical
        }
        switch random.below(5) {
        case 0:
            return "VT-" + canonical
        case 1:
            return "VT " + canonical
        case 2:
            return "vt" + canonical
        case 3:
            return canonical + ".0"
        default:
            return " " + canonical + " "
        }
    }

    /// A tag as Excel leaves it: leading zeros dropped, sometimes with a `.0` tail.
    static func spreadsheetTag(_ tag: Int, random: inout SeededRandom) -> String {
        random.chance(0.3) ? String(tag) + ".0" : String(tag)
    }

    /// A tag in scientific notation with three significant digits, as a narrow Excel column shows it.
    static func scientificTag(_ tag: Int) -> String {
        var exponent = 0
        var scale = 1
        while scale * 10 <= tag {
            scale *= 10
            exponent += 1
        }
        let hundredths = (tag * 100 + scale / 2) / scale
        let mantissa = String(hundredths / 100) + "." + CalendarDay.padded(hundredths % 100, width: 2)
        return mantissa + "E+" + CalendarDay.padded(exponent, width: 2)
    }

    /// A CNS number with a lower-case `c`, a separator, no `C`, or unpadded digits.
    static func cns(_ cns: Int, digits: Int, rate: Double, random: inout SeededRandom) -> String {
        let padded = CalendarDay.padded(cns, width: digits)
        guard random.chance(rate) else {
            return "C" + padded
        }
        switch random.below(5) {
        case 0:
            return "c" + padded
        case 1:
            return "C-" + padded
        case 2:
            return "C " + padded
        case 3:
            return padded
        default:
            return "C" + String(cns)
        }
    }

    /// A CNS number as Excel leaves it: digits only, leading zeros dropped, sometimes with a `.0` tail.
    static func spreadsheetCNS(_ cns: Int, random: inout SeededRandom) -> String {
        random.chance(0.5) ? String(cns) + ".0" : String(cns)
    }

    /// A serial number in lower case, with an inner space, or padded.
    static func serial(_ serial: String, rate: Double, random: inout SeededRandom) -> String {
        guard random.chance(rate) else {
            return serial
        }
        switch random.below(3) {
        case 0:
            return serial.lowercased()
        case 1:
            return String(serial.prefix(4)) + " " + String(serial.dropFirst(4))
        default:
            return " " + serial + " "
        }
    }

    /// A MAC address in one of the four accepted forms.
    static func mac(_ mac: UInt64, random: inout SeededRandom) -> String {
        let octets = CanonicalForm.macOctets(mac)
        switch random.below(4) {
        case 0:
            return octets.joined(separator: ":")
        case 1:
            return octets.joined(separator: "-").uppercased()
        case 2:
            return octets[0] + octets[1] + "." + octets[2] + octets[3] + "." + octets[4] + octets[5]
        default:
            return octets.joined().uppercased()
        }
    }

    /// A MAC address with one hex digit missing (11 digits), which cannot be normalized.
    static func shortMAC(_ mac: UInt64) -> String {
        String(CanonicalForm.mac(mac).dropLast())
    }

    /// A building by code most of the time, otherwise by its full name in some case.
    static func building(_ building: Building, rate: Double, random: inout SeededRandom) -> String {
        guard random.chance(rate) else {
            return building.code
        }
        switch random.below(4) {
        case 0:
            return building.name
        case 1:
            return building.name.uppercased()
        case 2:
            return building.name.lowercased()
        default:
            return " " + building.code + " "
        }
    }

    /// A model in another case or padded.
    static func model(_ model: String, rate: Double, random: inout SeededRandom) -> String {
        guard random.chance(rate) else {
            return model
        }
        return random.chance(0.5) ? model.lowercased() : " " + model + " "
    }

    /// A room in lower case, padded, or with doubled inner spaces.
    static func room(_ room: String, rate: Double, random: inout SeededRandom) -> String {
        guard random.chance(rate) else {
            return room
        }
        switch random.below(3) {
        case 0:
            return room.lowercased()
        case 1:
            return " " + room + " "
        default:
            return room.contains(" ") ? room.replacingOccurrences(of: " ", with: "  ") : room.lowercased()
        }
    }

    /// A mount capitalized, upper-case or as is.
    static func mount(_ mount: String, random: inout SeededRandom) -> String {
        switch random.below(4) {
        case 0:
            return mount.prefix(1).uppercased() + mount.dropFirst()
        case 1:
            return mount.uppercased()
        default:
            return mount
        }
    }

    /// A survey scan date: ISO, US long form, or an ISO date-time.
    static func scanDate(_ day: CalendarDay, random: inout SeededRandom) -> String {
        switch random.below(4) {
        case 0:
            return day.usLong
        case 1:
            return day.iso + "T" + time(random: &random)
        case 2:
            return day.iso + " " + String(time(random: &random).prefix(5))
        default:
            return day.iso
        }
    }

    /// A time of day `HH:MM:SS` during working hours.
    static func time(random: inout SeededRandom) -> String {
        CalendarDay.padded(random.integer(in: 7...18), width: 2) + ":"
            + CalendarDay.padded(random.integer(in: 0...59), width: 2) + ":"
            + CalendarDay.padded(random.integer(in: 0...59), width: 2)
    }

    /// A GPS position, `lat,lon`, in decimal degrees.
    static func gps(latitudeMicrodegrees: Int, longitudeMicrodegrees: Int) -> String {
        CanonicalForm.degrees(latitudeMicrodegrees) + "," + CanonicalForm.degrees(longitudeMicrodegrees)
    }
}
