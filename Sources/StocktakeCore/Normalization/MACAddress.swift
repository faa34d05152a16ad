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
        if let value = wellFormedValue(trimmed) {
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

    /// The value of a well-formed address (`aa:bb:cc:dd:ee:ff`, `aa-bb-cc-dd-ee-ff`, `aabb.ccdd.eeff` or twelve
    /// bare digits, the forms nearly every cell has), its twelve digits gathered from their fixed places into two
    /// words and read eight at a time; `nil` for any other text, which `normalize` then reads byte by byte and
    /// explains.
    @inline(__always)
    private static func wellFormedValue(_ text: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard let base = UnsafeRawPointer(text.baseAddress) else { return nil }
        // The first eight digits, the first in the lowest byte, and the last four with four zeros after them.
        let first: UInt64
        let last: UInt64
        switch text.count {
        case 17:
            let separator = base.load(fromByteOffset: 2, as: UInt8.self)
            guard separator == UInt8(ascii: ":") || separator == UInt8(ascii: "-") else { return nil }
            guard base.load(fromByteOffset: 5, as: UInt8.self) == separator,
                base.load(fromByteOffset: 8, as: UInt8.self) == separator,
                base.load(fromByteOffset: 11, as: UInt8.self) == separator,
                base.load(fromByteOffset: 14, as: UInt8.self) == separator
            else { return nil }
            first =
                UInt64(pair(base, 0)) | UInt64(pair(base, 3)) << 16 | UInt64(pair(base, 6)) << 32
                | UInt64(pair(base, 9)) << 48
            last = UInt64(pair(base, 12)) | UInt64(pair(base, 15)) << 16 | paddingZeros
        case 14:
            guard base.load(fromByteOffset: 4, as: UInt8.self) == UInt8(ascii: "."),
                base.load(fromByteOffset: 9, as: UInt8.self) == UInt8(ascii: ".")
            else { return nil }
            first = UInt64(quad(base, 0)) | UInt64(quad(base, 5)) << 32
            last = UInt64(quad(base, 10)) | paddingZeros
        case 12:
            first = base.loadUnaligned(as: UInt64.self).littleEndian
            last = UInt64(quad(base, 8)) | paddingZeros
        default:
            return nil
        }
        guard let high = hexValue(eightDigits: first), let low = hexValue(eightDigits: last) else { return nil }
        return UInt64(high) << 16 | UInt64(low >> 16)
    }

    /// Four `0` digits in the four highest bytes of a word.
    private static var paddingZeros: UInt64 { 0x3030_3030_0000_0000 }

    @inline(__always)
    private static func pair(_ base: UnsafeRawPointer, _ offset: Int) -> UInt16 {
        base.loadUnaligned(fromByteOffset: offset, as: UInt16.self).littleEndian
    }

    @inline(__always)
    private static func quad(_ base: UnsafeRawPointer, _ offset: Int) -> UInt32 {
        base.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian
    }

    /// The number eight hex digits spell, the first in the lowest byte of `word`; `nil` when a byte is not a hex
    /// digit. Every byte is tested against the ranges `0`–`9` and `a`–`f` (upper case folded) at once: a byte below
    /// 0x80 plus 0x80 − `low` reaches 0x80 exactly when it is at least `low`, plus 0x7F − `high` exactly when it is
    /// above `high`, and no sum carries into the next byte.
    @inline(__always)
    static func hexValue(eightDigits word: UInt64) -> UInt32? {
        let tops: UInt64 = 0x8080_8080_8080_8080
        guard word & tops == 0 else { return nil }
        let folded = word | 0x2020_2020_2020_2020
        // 0x80 − 0x30 (`0`), 0x7F − 0x39 (`9`), 0x80 − 0x61 (`a`) and 0x7F − 0x66 (`f`) in every byte.
        let isDigit = (word &+ 0x5050_5050_5050_5050) & ~(word &+ 0x4646_4646_4646_4646) & tops
        let isLetter = (folded &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(folded &+ 0x1919_1919_1919_1919) & tops
        guard isDigit | isLetter == tops else { return nil }
        // Each byte's digit value: its low four bits, plus 9 for a letter (`a` is 0x61).
        let nibbles = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ (isLetter &>> 7) &* 9
        // Two digits to a byte, then the four bytes together, the first digit highest.
        let pairs = (nibbles &<< 4 | nibbles &>> 8) & 0x00FF_00FF_00FF_00FF
        let quads = (pairs | pairs &>> 8) & 0x0000_FFFF_0000_FFFF
        return UInt32(truncatingIfNeeded: quads | quads &>> 16).byteSwapped
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
