/// The canonical text of identifiers, as the reconciler writes them and `expected.csv` lists them.
enum CanonicalForm {
    /// A VT tag left-padded with zeros to `digits`.
    static func tag(_ tag: Int, digits: Int) -> String {
        CalendarDay.padded(tag, width: digits)
    }

    /// `C` followed by the number left-padded with zeros to `digits`.
    static func cns(_ cns: Int, digits: Int) -> String {
        "C" + CalendarDay.padded(cns, width: digits)
    }

    /// The MAC address in lower-case colon form, `aa:bb:cc:dd:ee:ff`.
    static func mac(_ mac: UInt64) -> String {
        macOctets(mac).joined(separator: ":")
    }

    /// The six octets of a MAC address as two lower-case hex digits each.
    static func macOctets(_ mac: UInt64) -> [String] {
        (0..<6).reversed().map { index in
            let octet = Int((mac >> (UInt64(index) * 8)) & 0xFF)
            let text = String(octet, radix: 16)
            return text.count == 1 ? "0" + text : text
        }
    }

    /// Decimal degrees with six decimals, from millionths of a degree.
    static func degrees(_ microdegrees: Int) -> String {
        let sign = microdegrees < 0 ? "-" : ""
        let magnitude = abs(microdegrees)
        return sign + String(magnitude / 1_000_000) + "." + CalendarDay.padded(magnitude % 1_000_000, width: 6)
    }
}
