/// The networking department's own number for a device (the "CNS number" or "C Number"):
/// `C` followed by a fixed count of digits, such as `C000123`.
///
/// Kept as an integer with the account's digit count so it is cheap to hash and compare.
public struct CNSNumber: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number after the `C`; leading zeros are not part of it.
    public let number: UInt64
    /// How many digits follow the `C` in the canonical form (the account's `cnsDigits`, 6 by default).
    public let digits: Int

    /// The digit counts `normalize` supports (a `UInt64` holds 19 digits); check an account's setting against it.
    public static let supportedDigits: ClosedRange<Int> = 1...DigitIdentifier.maximumDigits

    /// Creates a CNS number from its number and the account's digit count.
    public init(number: UInt64, digits: Int) {
        self.number = number
        self.digits = digits
    }

    /// The canonical form: `C` and the number left-padded with zeros to `digits`, such as `C000123`.
    public var description: String {
        let text = String(number)
        let padding = text.utf8.count >= digits ? "" : String(repeating: "0", count: digits - text.utf8.count)
        return "C" + padding + text
    }

    /// Orders CNS numbers by number (then by digit count, which is the same within one account).
    public static func < (lhs: CNSNumber, rhs: CNSNumber) -> Bool {
        (lhs.number, lhs.digits) < (rhs.number, rhs.digits)
    }

    /// Reads a CNS number from raw cell bytes.
    ///
    /// Accepts an optional `C` or `c`, then optionally one space or hyphen, then digits, with blanks around the
    /// value and an optional spreadsheet float tail of a dot and zeros (`123.0`). Fewer digits than `digits` are
    /// left-padded. Blanks and placeholders are `.empty`. Scientific notation, other characters, a decimal part,
    /// or more than `digits` digits are `.invalid`.
    ///
    /// - Parameter digits: the account's CNS digit count, from 1 to 19 (`supportedDigits`).
    public static func normalize(_ cell: UnsafeBufferPointer<UInt8>, digits: Int) -> Normalized<CNSNumber> {
        let parsed = DigitIdentifier.parse(
            cell: cell, prefix: "c", digits: digits, kind: "CNS number", shape: "a CNS number is C followed by digits")
        switch parsed {
        case .value(let number):
            return .value(CNSNumber(number: number, digits: digits))
        case .invalid(let reason):
            return .invalid(reason: reason)
        case .empty:
            return .empty
        }
    }

    /// Reads a CNS number from text, with the same rules as the byte overload.
    public static func normalize(_ text: String, digits: Int) -> Normalized<CNSNumber> {
        CellText.withBytes(of: text) { normalize($0, digits: digits) }
    }
}
