import StocktakeCore

/// An HTTP-date in the preferred IMF-fixdate form (RFC 9110, section 5.6.7), such as
/// `Sun, 06 Nov 1994 08:49:37 GMT`, as servers send it in `Retry-After`.
///
/// Read without `DateFormatter`, so that no locale or ICU data is involved and no allocation is left behind on
/// every 429 (Foundation's formatter kept a few hundred bytes per use, which fuzzing found).
public enum HTTPDate {
    /// Seconds since 1970-01-01 00:00:00 UTC, or `nil` when the text is not an IMF-fixdate.
    public static func secondsSinceEpoch(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        // "Sun, 06 Nov 1994 08:49:37 GMT" is 29 bytes with fixed positions.
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20,
            bytes[11] == 0x20, bytes[16] == 0x20, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"),
            bytes[25] == 0x20, bytes[26...28].elementsEqual("GMT".utf8),
            dayNames.contains(where: { $0.elementsEqual(bytes[0..<3]) }),
            let month = monthNames.firstIndex(where: { $0.elementsEqual(bytes[8..<11]) }),
            let day = number(bytes[5..<7]), let year = number(bytes[12..<16]), let hour = number(bytes[17..<19]),
            let minute = number(bytes[20..<22]), let second = number(bytes[23..<25]),
            hour < 24, minute < 60, second < 61,
            let date = InventoryDate(year: year, month: month + 1, day: day)
        else {
            return nil
        }
        return Int(date.daysSinceEpoch) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ].map { Array($0.utf8) }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
