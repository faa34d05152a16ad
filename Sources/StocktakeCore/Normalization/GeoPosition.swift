/// A GPS position in decimal degrees, as recorded where a device was scanned.
public struct GeoPosition: Hashable, Sendable {
    /// Degrees north of the equator, from -90 to 90.
    public let latitude: Double
    /// Degrees east of Greenwich, from -180 to 180.
    public let longitude: Double

    /// Creates a position from degrees already known to be in range.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Reads a latitude in decimal degrees (such as `37.2296` or `-37.2296`) from raw cell bytes.
    /// Blanks and placeholders are `.empty`; text that is not a plain decimal number, or a value outside
    /// -90...90, is `.invalid`.
    public static func normalizeLatitude(_ cell: UnsafeBufferPointer<UInt8>) -> Normalized<Double> {
        coordinate(cell, axis: .latitude)
    }

    /// Reads a latitude from text, with the same rules as the byte overload.
    public static func normalizeLatitude(_ text: String) -> Normalized<Double> {
        CellText.withBytes(of: text) { normalizeLatitude($0) }
    }

    /// Reads a longitude in decimal degrees (such as `-80.4139`) from raw cell bytes.
    /// Blanks and placeholders are `.empty`; text that is not a plain decimal number, or a value outside
    /// -180...180, is `.invalid`.
    public static func normalizeLongitude(_ cell: UnsafeBufferPointer<UInt8>) -> Normalized<Double> {
        coordinate(cell, axis: .longitude)
    }

    /// Reads a longitude from text, with the same rules as the byte overload.
    public static func normalizeLongitude(_ text: String) -> Normalized<Double> {
        CellText.withBytes(of: text) { normalizeLongitude($0) }
    }

    /// Reads one cell holding `lat,lon` (also `lat, lon`, `lat lon` or `lat;lon`, optionally inside
    /// parentheses), as GPS and "Coordinates" columns hold it. Blanks and placeholders, also as both halves
    /// (`N/A, N/A`), are `.empty`; a cell without two numbers, or with either one out of range, is `.invalid`.
    public static func normalizePair(_ cell: UnsafeBufferPointer<UInt8>) -> Normalized<GeoPosition> {
        var trimmed = ByteTrim.trimmed(cell)
        if Placeholder.isEmptyOrPlaceholder(trimmed) {
            return .empty
        }
        let opens = trimmed.first == UInt8(ascii: "(")
        let closes = trimmed.last == UInt8(ascii: ")")
        if opens != closes {
            return .invalid(reason: "has an unmatched parenthesis; write the position as latitude,longitude")
        }
        if opens {
            trimmed = ByteTrim.trimmed(UnsafeBufferPointer(rebasing: trimmed.dropFirst().dropLast()))
            if trimmed.isEmpty {
                return .invalid(reason: "has no numbers; write the position as latitude,longitude")
            }
        }
        guard let split = separatorRange(trimmed) else {
            return .invalid(reason: "is not a latitude,longitude pair such as \"37.2296,-80.4139\"")
        }
        let latitudeBytes = UnsafeBufferPointer(rebasing: trimmed[trimmed.startIndex..<split.lowerBound])
        let longitudeBytes = UnsafeBufferPointer(rebasing: trimmed[split.upperBound..<trimmed.endIndex])
        let latitude = reading(latitudeBytes, axis: .latitude)
        let longitude = reading(longitudeBytes, axis: .longitude)
        switch (latitude, longitude) {
        case (.blank, .blank):
            return .empty
        case (.degrees(let latitude), .degrees(let longitude)):
            return .value(GeoPosition(latitude: latitude, longitude: longitude))
        case (.degrees, _):
            return .invalid(reason: longitude.reason(for: longitudeBytes, axis: .longitude, inPair: true))
        default:
            return .invalid(reason: latitude.reason(for: latitudeBytes, axis: .latitude, inPair: true))
        }
    }

    /// Reads a position from text, with the same rules as the byte overload.
    public static func normalizePair(_ text: String) -> Normalized<GeoPosition> {
        CellText.withBytes(of: text) { normalizePair($0) }
    }

    /// The canonical text of a coordinate: the shortest decimal that reads back as the same `Double`, never in
    /// exponent notation and without a trailing `.0` (`-80.4139`, `37.2296`, `0.00001`, `37`).
    public static func text(_ degrees: Double) -> String {
        if degrees == 0 {
            return "0"
        }
        let shortest = "\(degrees)"
        guard let exponentMark = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }) else {
            return shortest.hasSuffix(".0") ? String(shortest.dropLast(2)) : shortest
        }
        guard let exponent = Int(shortest[shortest.index(after: exponentMark)...]) else {
            return shortest
        }
        let mantissa = shortest[..<exponentMark]
        let negative = mantissa.hasPrefix("-")
        let digits = mantissa.filter { $0.isNumber }
        let integerDigits = mantissa.drop { !$0.isNumber }.prefix { $0 != "." }.count
        let pointPosition = integerDigits + exponent
        var plain: String
        if pointPosition <= 0 {
            plain = "0." + String(repeating: "0", count: -pointPosition) + digits
        } else if pointPosition >= digits.count {
            plain = digits + String(repeating: "0", count: pointPosition - digits.count)
        } else {
            plain = String(digits.prefix(pointPosition)) + "." + String(digits.dropFirst(pointPosition))
        }
        while plain.contains(".") && (plain.hasSuffix("0") || plain.hasSuffix(".")) {
            plain.removeLast()
        }
        return negative ? "-" + plain : plain
    }

    // MARK: Parsing

    /// Which coordinate a number is, for its range and reasons.
    private enum Axis {
        case latitude
        case longitude

        var limit: Double { self == .latitude ? 90 : 180 }
        var name: StaticString { self == .latitude ? "latitude" : "longitude" }
        var example: StaticString { self == .latitude ? "37.2296" : "-80.4139" }
    }

    /// The longest number text accepted; longer ones carry no meaningful precision.
    private static let longestNumber = 40

    /// What one coordinate's text holds.
    private enum Reading {
        case blank
        case degrees(Double)
        case notANumber
        case outOfRange

        /// Why the coordinate in `bytes` cannot be used; `inPair` when it is one half of a pair.
        func reason(for bytes: UnsafeBufferPointer<UInt8>, axis: Axis, inPair: Bool) -> String {
            let limit = Int(axis.limit)
            let text = CellText.string(ByteTrim.trimmed(bytes))
            switch (self, inPair) {
            case (.outOfRange, false):
                return "\(axis.name) \(text) is out of range (-\(limit) to \(limit))"
            case (.outOfRange, true):
                return "has \(axis.name) \(text), which is out of range (-\(limit) to \(limit))"
            case (.blank, _):
                return "has no \(axis.name); write the position as latitude,longitude"
            case (_, false):
                return "is not a \(axis.name) in decimal degrees, such as \(axis.example)"
            case (_, true):
                return "has \(axis.name) \"\(text)\", which is not a number in decimal degrees"
            }
        }
    }

    /// Reads one coordinate as a `Normalized` value.
    private static func coordinate(_ cell: UnsafeBufferPointer<UInt8>, axis: Axis) -> Normalized<Double> {
        let result = reading(cell, axis: axis)
        switch result {
        case .blank:
            return .empty
        case .degrees(let degrees):
            return .value(degrees)
        case .notANumber, .outOfRange:
            return .invalid(reason: result.reason(for: cell, axis: axis, inPair: false))
        }
    }

    /// Reads one coordinate: an optional sign, digits with an optional decimal point, and nothing else.
    private static func reading(_ cell: UnsafeBufferPointer<UInt8>, axis: Axis) -> Reading {
        let trimmed = ByteTrim.trimmed(cell)
        if Placeholder.isEmptyOrPlaceholder(trimmed) {
            return .blank
        }
        guard trimmed.count <= longestNumber, isPlainDecimal(trimmed) else {
            return .notANumber
        }
        let degrees = exactDecimal(trimmed) ?? Double(String(decoding: trimmed, as: UTF8.self)) ?? .nan
        guard degrees.isFinite, abs(degrees) <= axis.limit else {
            return .outOfRange
        }
        return .degrees(degrees == 0 ? 0 : degrees)
    }

    /// The value of a plain decimal (see `isPlainDecimal`) when it has at most 15 significant digits and at most
    /// 22 decimals, computed without building a string; `nil` for other numbers.
    ///
    /// Both the integer of the digits and the power of ten are then exact doubles, and one correctly rounded
    /// division gives the correctly rounded value, the same as a full decimal parser would.
    private static func exactDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = bytes.startIndex
        var negative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var digits: UInt64 = 0
        var significantDigits = 0
        var decimals = 0
        var afterPoint = false
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ".") {
                afterPoint = true
                continue
            }
            digits = digits * 10 + UInt64(byte - UInt8(ascii: "0"))
            if digits > 0 {
                significantDigits += 1
            }
            if afterPoint {
                decimals += 1
            }
            if significantDigits > 15 || decimals >= powersOfTen.count {
                return nil
            }
        }
        let magnitude = Double(digits) / powersOfTen[decimals]
        return negative ? -magnitude : magnitude
    }

    /// 10⁰ through 10²², every power of ten that a `Double` holds exactly.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]

    /// True for an optional sign followed by digits with at most one decimal point and at least one digit.
    private static func isPlainDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = bytes.startIndex
        if index < bytes.endIndex && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
            index += 1
        }
        var digits = 0
        var points = 0
        while index < bytes.endIndex {
            let byte = bytes[index]
            if CellText.isDigit(byte) {
                digits += 1
            } else if byte == UInt8(ascii: ".") {
                points += 1
            } else {
                return false
            }
            index += 1
        }
        return digits > 0 && points <= 1
    }

    /// Where the separator between the two numbers of a pair is: the first comma or semicolon with any
    /// blanks around it, or else the first run of blanks. `nil` when there is none.
    private static func separatorRange(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        let mark =
            bytes.firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") }
            ?? bytes.firstIndex(where: isBlank)
        guard let mark else {
            return nil
        }
        var lower = mark
        while lower > bytes.startIndex && isBlank(bytes[lower - 1]) {
            lower -= 1
        }
        var upper = mark + 1
        while upper < bytes.endIndex && isBlank(bytes[upper]) {
            upper += 1
        }
        return lower..<upper
    }
}
