/// Shared byte-level helpers for the normalizers: running a byte normalizer on a `String`,
/// ASCII classification, and describing an offending character in a reason.
enum CellText {
    /// Calls `body` with the UTF-8 bytes of `text`, without changing the caller's string.
    static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var copy = text
        return copy.withUTF8 { body($0) }
    }

    /// True for an ASCII decimal digit.
    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// The ASCII upper-case form of `byte`; other bytes are returned unchanged.
    static func upperCased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte
    }

    /// The ASCII lower-case form of `byte`; other bytes are returned unchanged.
    static func lowerCased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
    }

    /// The text of the cell for use in messages (invalid UTF-8 is repaired).
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// A phrase naming the character that starts at `index`, such as `the character "A"`,
    /// `a space`, or `the control character 0x07`, for use inside a reason.
    static func describeCharacter(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> String {
        let byte = bytes[index]
        switch byte {
        case 0x20:
            return "a space"
        case 0x09:
            return "a tab"
        case 0x22:
            return "a double quote"
        case 0x21...0x7E:
            return "the character \"\(Character(Unicode.Scalar(byte)))\""
        case 0x00..<0x20, 0x7F:
            return "the control character 0x\(hex(byte))"
        default:
            var end = index + 1
            while end < bytes.endIndex && bytes[end] & 0xC0 == 0x80 {
                end += 1
            }
            let character = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
            return "the character \"\(character)\""
        }
    }

    /// Two upper-case hex digits for `byte`.
    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
