/// What one asset cost, in whole cents: the `cost` field, which billing sheets call Unit Cost, Amount or Price.
///
/// Kept as an integer number of cents so that totals over a million assets add up exactly. The canonical text is
/// dollars and two decimals with a dot and no grouping (`1234.50`), which every spreadsheet reads as a number.
public struct UnitCost: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The cost in cents, zero or more.
    public let cents: Int64

    /// A cost of `cents` cents.
    public init(cents: Int64) {
        self.cents = cents
    }

    /// `1234.50`: whole dollars, a dot, two digits of cents.
    public var description: String {
        var bytes: [UInt8] = []
        CanonicalText.append(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func < (lhs: UnitCost, rhs: UnitCost) -> Bool { lhs.cents < rhs.cents }

    /// Reads a cost from raw cell bytes: `$1,234.50`, `1234.5`, `$ 895`, `.99`.
    ///
    /// A leading `$`, thousands separated by commas (in groups of three) and up to two decimals after a dot are
    /// accepted. Anything that could be read two ways is invalid rather than guessed: `1.234,50` or `12,50` (a comma
    /// as the decimal mark) and `1.234` (three decimals, which is 1234 where a dot groups thousands). Negative
    /// amounts, other currencies and scientific notation are invalid too. Blanks and placeholders are `.empty`.
    public static func normalize(_ cell: UnsafeBufferPointer<UInt8>) -> Normalized<UnitCost> {
        let trimmed = ByteTrim.trimmed(cell)
        if Placeholder.isEmptyOrPlaceholder(trimmed) { return .empty }
        var index = trimmed.startIndex
        let end = trimmed.endIndex
        if trimmed[index] == UInt8(ascii: "-") || trimmed[index] == UInt8(ascii: "(") {
            return .invalid(reason: "is negative; a unit cost is zero or more")
        }
        if trimmed[index] == UInt8(ascii: "$") {
            index += 1
            while index < end && (trimmed[index] == 0x20 || trimmed[index] == 0x09) { index += 1 }
            if index < end && trimmed[index] == UInt8(ascii: "-") {
                return .invalid(reason: "is negative; a unit cost is zero or more")
            }
        }
        var dollars: Int64 = 0
        var digitsInGroup = 0
        var sawComma = false
        var sawDigit = false
        while index < end, trimmed[index] != UInt8(ascii: ".") {
            let byte = trimmed[index]
            if byte == UInt8(ascii: ",") {
                // A comma ends a group: the first of one to three digits, every later one of exactly three.
                if digitsInGroup == 0 || digitsInGroup > 3 || (sawComma && digitsInGroup != 3) {
                    return .invalid(reason: commaReason)
                }
                sawComma = true
                digitsInGroup = 0
            } else if let digit = digit(byte) {
                let (times, overflowTimes) = dollars.multipliedReportingOverflow(by: 10)
                let (plus, overflowPlus) = times.addingReportingOverflow(digit)
                if overflowTimes || overflowPlus { return .invalid(reason: tooLargeReason) }
                dollars = plus
                digitsInGroup += 1
                sawDigit = true
            } else {
                return .invalid(reason: generalReason)
            }
            index += 1
        }
        if sawComma && digitsInGroup != 3 { return .invalid(reason: commaReason) }
        var cents: Int64 = 0
        var decimals = 0
        if index < end {
            // The dot, then the cents. A comma after the dot makes the dot a thousands separator (`1.234,50`).
            index += 1
            if trimmed[index..<end].contains(UInt8(ascii: ",")) { return .invalid(reason: commaReason) }
            while index < end {
                guard let digit = digit(trimmed[index]) else { return .invalid(reason: generalReason) }
                decimals += 1
                if decimals > 2 {
                    return .invalid(
                        reason: "has more than two decimal places; write the cost in dollars and cents, such as 1234.50"
                    )
                }
                cents = cents * 10 + digit
                index += 1
            }
            if decimals == 0 && !sawDigit { return .invalid(reason: generalReason) }
            if decimals == 1 { cents *= 10 }
        } else if !sawDigit {
            return .invalid(reason: generalReason)
        }
        let (hundreds, overflowTimes) = dollars.multipliedReportingOverflow(by: 100)
        let (total, overflowPlus) = hundreds.addingReportingOverflow(cents)
        if overflowTimes || overflowPlus { return .invalid(reason: tooLargeReason) }
        return .value(UnitCost(cents: total))
    }

    /// Reads a cost from text, with the same rules as the byte overload.
    public static func normalize(_ text: String) -> Normalized<UnitCost> {
        CellText.withBytes(of: text) { normalize($0) }
    }

    private static let generalReason = "is not an amount of money such as $1,234.50"
    private static let commaReason =
        "has a comma that does not separate thousands; write the cost with a dot before the cents, such as 1234.50"
    private static let tooLargeReason = "is too large for a unit cost"

    private static func digit(_ byte: UInt8) -> Int64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int64(byte - UInt8(ascii: "0")) : nil
    }
}
