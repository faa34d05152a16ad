/// A university property tag (the "VT tag", also called P-tag, Inventory Number or Asset ID):
/// a number printed with a fixed count of digits, such as `001234`.
///
/// The first identifier used to join rows from different sheets into one asset, so it is kept
/// as an integer (cheap to hash and compare) together with the account's digit count.
public struct VTTag: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The tag's numeric value; leading zeros are not part of it.
    public let number: UInt64
    /// How many digits the canonical form has (the account's `tagDigits`, 6 by default).
    public let digits: Int

    /// The digit counts `normalize` supports (a `UInt64` holds 19 digits); check an account's setting against it.
    public static let supportedDigits: ClosedRange<Int> = 1...DigitIdentifier.maximumDigits

    /// Creates a tag from its number and the account's digit count.
    public init(number: UInt64, digits: Int) {
        self.number = number
        self.digits = digits
    }

    /// The canonical form: the number left-padded with zeros to `digits`, such as `001234`.
    public var description: String {
        let text = String(number)
        return text.utf8.count >= digits ? text : String(repeating: "0", count: digits - text.utf8.count) + text
    }

    /// Orders tags by number (then by digit count, which is the same within one account).
    public static func < (lhs: VTTag, rhs: VTTag) -> Bool {
        (lhs.number, lhs.digits) < (rhs.number, rhs.digits)
    }

    /// Reads a VT tag from raw cell bytes.
    ///
    /// Accepts digits with an optional `VT` prefix in any case, itself optionally followed by one space or
    /// hyphen (`VT-001234`, `vt 1234`), blanks around the value, and a spreadsheet float tail of a dot and zeros
    /// (`1234.0`). Fewer digits than `digits` are left-padded, because Excel drops leading zeros. Blanks and
    /// placeholders are `.empty`. Scientific notation, other characters, a decimal part, or more than `digits`
    /// digits (leading zeros included) are `.invalid`.
    ///
    /// - Parameter digits: the account's tag digit count, from 1 to 19 (`supportedDigits`).
    public static func normalize(_ cell: UnsafeBufferPointer<UInt8>, digits: Int) -> Normalized<VTTag> {
        let parsed = DigitIdentifier.parse(
            cell: cell, prefix: "vt", digits: digits, kind: "VT tag", shape: "a VT tag is digits, optionally after VT")
        switch parsed {
        case .value(let number):
            return .value(VTTag(number: number, digits: digits))
        case .invalid(let reason):
            return .invalid(reason: reason)
        case .empty:
            return .empty
        }
    }

    /// Reads a VT tag from text, with the same rules as the byte overload.
    public static func normalize(_ text: String, digits: Int) -> Normalized<VTTag> {
        CellText.withBytes(of: text) { normalize($0, digits: digits) }
    }
}
