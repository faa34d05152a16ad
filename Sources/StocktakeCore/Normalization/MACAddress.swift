/// A 48-bit hardware (MAC) address, such as `aa:bb:cc:dd:ee:ff`.
///
/// The third identifier used to join rows into one asset. Kept as an integer so that every written
/// form of the same address compares equal and hashes cheaply.
public struct MACAddress: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The address in the low 48 bits.
    public let value: UInt64

    /// Creates an address from its value; only the low 48 bits are kept.
    public init(value: UInt64) {
        self.value = value & 0xFFFF_FFFF_FFFF
    }

    /// The canonical form: six lower-case two-digit hex groups separated by colons, `aa:bb:cc:dd:ee:ff`.
    public var description: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 17) { output in
            for group in 0..<6 {
                let byte = UInt8(truncatingIfNeeded: value &>> UInt64(40 - 8 * group))
                output[group * 3] = digits[Int(byte >> 4)]
                output[group * 3 + 1] = digits[Int(byte & 0x0F)]
                if group < 5 {
                    output[group * 3 + 2] = UInt8(ascii: ":")
                }
            }
            return 17
        }
    }

    /// Orders addresses by value.
    public static func < (lhs: MACAddress, rhs: MACAddress) -> Bool {
        lhs.value < rhs.value
    }

    /// Reads a MAC address from raw cell bytes.
    ///
    /// Accepts exactly these forms, in any case, with blanks around them: `aa:bb:cc:dd:ee:ff`,
    /// `aa-bb-cc-dd-ee-ff` (two hex digits per group, one separator throughout), Cisco's `aabb.ccdd.eeff`, and
    /// twelve bare hex digits. Blanks, placeholders, and the all-zero and broadcast addresses
    /// (`00:00:00:00:00:00`, `ff:ff:ff:ff:ff:ff`, which devices report when they have no real address) are
    /// `.empty`. Anything else is `.invalid`, with a reason naming the problem.
    public static func normalize(_ cell: UnsafeBufferPointer<UInt8>) -> Normalized<MACAddress> {
        let trimmed = ByteTrim.trimmed(cell)
        if Placeholder.isEmptyOrPlaceholder(trimmed) {
            return .empty
        }
        if let value = groupedValue(trimmed) {
            return value == 0 || value == 0xFFFF_FFFF_FFFF ? .empty : .value(MACAddress(value: value))
        }
        var value: UInt64 = 0
        var hexDigits = 0
        var separator: UInt8 = 0
        var separatorsInPlace = true
        for index in trimmed.indices {
            let byte = trimmed[index]
            if let digit = hexValue(byte) {
                value = (value << 4) | UInt64(digit)
                hexDigits += 1
            } else if byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") {
                if separator == 0 {
                    separator = byte
                } else if separator != byte {
                    return .invalid(
                        reason: "mixes the separators \"\(Character(Unicode.Scalar(separator)))\" and "
                            + "\"\(Character(Unicode.Scalar(byte)))\"; use one separator throughout")
                }
                let position = index - trimmed.startIndex
                separatorsInPlace =
                    separatorsInPlace && (byte == UInt8(ascii: ".") ? position % 5 == 4 : position % 3 == 2)
            } else {
                return .invalid(
                    reason: "contains \(CellText.describeCharacter(in: trimmed, at: index)), "
                        + "which is not a hex digit or separator")
            }
        }
        if hexDigits != 12 {
            return .invalid(
                reason: "has \(counted(hexDigits, "hex digit")); a MAC address has 12")
        }
        let wellFormed: Bool
        switch separator {
        case 0:
            wellFormed = true
        case UInt8(ascii: "."):
            wellFormed = trimmed.count == 14 && separatorsInPlace
        default:
            wellFormed = trimmed.count == 17 && separatorsInPlace
        }
        if !wellFormed {
            return .invalid(
                reason: "groups its hex digits unusually; write it as aa:bb:cc:dd:ee:ff, aabb.ccdd.eeff "
                    + "or aabbccddeeff")
        }
        if value == 0 || value == 0xFFFF_FFFF_FFFF {
            return .empty
        }
        return .value(MACAddress(value: value))
    }

    /// Reads a MAC address from text, with the same rules as the byte overload.
    public static func normalize(_ text: String) -> Normalized<MACAddress> {
        CellText.withBytes(of: text) { normalize($0) }
    }

    /// The value of `aa:bb:cc:dd:ee:ff` or `aa-bb-cc-dd-ee-ff` (the forms nearly every cell has) read from the
    /// fixed places of its digits; `nil` for any other text, which `normalize` then reads byte by byte.
    @inline(__always)
    private static func groupedValue(_ text: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard text.count == 17, let base = text.baseAddress else { return nil }
        let separator = base[2]
        guard separator == UInt8(ascii: ":") || separator == UInt8(ascii: "-") else { return nil }
        var value: UInt64 = 0
        for group in 0..<6 {
            let offset = group * 3
            if group < 5 && base[offset + 2] != separator { return nil }
            guard let high = hexValue(base[offset]), let low = hexValue(base[offset + 1]) else { return nil }
            value = value << 8 | UInt64(high << 4 | low)
        }
        return value
    }

    /// The value of a hex digit in either case, or `nil` for any other byte.
    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"):
            return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"):
            return byte - UInt8(ascii: "A") + 10
        default:
            return nil
        }
    }
}
