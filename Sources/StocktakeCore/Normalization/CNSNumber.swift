/// The networking department's own number for a device (the "CNS number" or "C Number"):
/// `C` followed by a fixed count of digits, such as `C000123`; the `C` may be missing, lower-case, or followed by a
/// space or hyphen.
public struct CNSNumber: PaddedIdentifier {
    public let number: UInt64
    public var digits: Int { Int(storedDigits) }
    /// One byte keeps the type at 9 bytes, so an optional identifier fits in 16.
    private let storedDigits: UInt8

    public static let prefix: StaticString = "c"
    public static let kind: StaticString = "CNS number"
    public static let shape: StaticString = "a CNS number is C followed by digits"

    /// Creates a CNS number from its number and the account's digit count (`cnsDigits`, 6 by default).
    public init(number: UInt64, digits: Int) {
        self.number = number
        self.storedDigits = UInt8(clamping: digits)
    }

    /// The canonical form: `C` and the number left-padded with zeros to `digits`, such as `C000123`.
    public var description: String { "C" + paddedNumber }
}
