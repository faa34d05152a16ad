/// An identifier that is a number printed with a fixed count of digits after an optional letter prefix:
/// VT tags (`VT-001234`) and CNS numbers (`C000123`).
///
/// Kept as an integer with the account's digit count, so it is cheap to hash and compare; the shared parsing
/// accepts the forms spreadsheets produce (prefix in any case with a space or hyphen, dropped leading zeros, a
/// `.0` tail) and rejects scientific notation, letters and too many digits.
public protocol PaddedIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The numeric value; leading zeros are not part of it.
    var number: UInt64 { get }
    /// How many digits the canonical form has (the account's setting).
    var digits: Int { get }
    init(number: UInt64, digits: Int)
    /// The optional prefix, in lower-case ASCII letters (`vt`, `c`).
    static var prefix: StaticString { get }
    /// The identifier's name in messages ("VT tag").
    static var kind: StaticString { get }
    /// What a valid value looks like, for messages ("a VT tag is digits, optionally after VT").
    static var shape: StaticString { get }
}

extension PaddedIdentifier {
    /// The digit counts `normalize` supports (a `UInt64` holds 19 digits); check an account's setting against it.
    public static var supportedDigits: ClosedRange<Int> { 1...DigitIdentifier.maximumDigits }

    /// Reads the identifier from raw cell bytes. Fewer digits than `digits` are left-padded, because Excel drops
    /// leading zeros. Blanks and placeholders are `.empty`; scientific notation, other characters, a decimal part,
    /// or more than `digits` digits (leading zeros included) are `.invalid`.
    ///
    /// - Parameter digits: the account's digit count, from 1 to 19 (`supportedDigits`).
    public static func normalize(_ cell: UnsafeBufferPointer<UInt8>, digits: Int) -> Normalized<Self> {
        switch DigitIdentifier.parse(cell: cell, prefix: prefix, digits: digits, kind: kind, shape: shape) {
        case .value(let number): .value(Self(number: number, digits: digits))
        case .invalid(let reason): .invalid(reason: reason)
        case .empty: .empty
        }
    }

    /// Reads the identifier from text, with the same rules as the byte overload.
    public static func normalize(_ text: String, digits: Int) -> Normalized<Self> {
        CellText.withBytes(of: text) { normalize($0, digits: digits) }
    }

    /// The number left-padded with zeros to `digits`, such as `001234`.
    public var paddedNumber: String {
        let text = String(number)
        return text.utf8.count >= digits ? text : String(repeating: "0", count: digits - text.utf8.count) + text
    }

    /// Orders by number (then by digit count, which is the same within one account).
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.number, lhs.digits) < (rhs.number, rhs.digits)
    }
}
