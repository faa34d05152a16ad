/// A university property tag (the "VT tag", also called P-tag, Inventory Number or Asset ID):
/// a number printed with a fixed count of digits, such as `001234`, optionally written after `VT`
/// (`VT-001234`, `vt 1234`).
///
/// The first identifier used to join rows from different sheets into one asset.
public struct VTTag: PaddedIdentifier {
    public let number: UInt64
    public var digits: Int { Int(storedDigits) }
    /// One byte keeps the type at 9 bytes, so an optional identifier fits in 16.
    private let storedDigits: UInt8

    public static let prefix: StaticString = "vt"
    public static let kind: StaticString = "VT tag"
    public static let shape: StaticString = "a VT tag is digits, optionally after VT"

    /// Creates a tag from its number and the account's digit count (`tagDigits`, 6 by default).
    public init(number: UInt64, digits: Int) {
        self.number = number
        self.storedDigits = UInt8(clamping: digits)
    }

    /// The canonical form: the number left-padded with zeros to `digits`, such as `001234`.
    public var description: String { paddedNumber }
}
