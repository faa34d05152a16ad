/// Turns UTF-16 and Windows-1252 text into UTF-8 bytes, so the tokenizer only ever reads UTF-8.
///
/// The whole text is converted at once: such files come from a clerk's spreadsheet program and are small.
enum TextTranscoder {
    /// The UTF-8 form of UTF-16 text `bytes` (without its byte-order mark). An unpaired surrogate and a last odd
    /// byte each become U+FFFD, as every decoder of the Unicode standard does.
    static func utf8(fromUTF16 bytes: ArraySlice<UInt8>, bigEndian: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        func unit(at position: Int) -> UInt32 {
            let first = UInt32(bytes[position])
            let second = UInt32(bytes[position + 1])
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        while index + 1 < bytes.endIndex {
            let code = unit(at: index)
            index += 2
            if code >= 0xD800 && code <= 0xDBFF, index + 1 < bytes.endIndex {
                let low = unit(at: index)
                if low >= 0xDC00 && low <= 0xDFFF {
                    index += 2
                    append(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00), to: &output)
                    continue
                }
            }
            append(code >= 0xD800 && code <= 0xDFFF ? replacementCharacter : code, to: &output)
        }
        if index < bytes.endIndex { append(replacementCharacter, to: &output) }
        return output
    }

    /// The UTF-8 form of Windows-1252 text `bytes`. Bytes 0x80–0x9F follow the Windows-1252 table (0x80 is €, 0x92
    /// is ’); the five it leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) become the C1 controls of the same value,
    /// as the WHATWG Encoding Standard decodes them, so no byte is lost; 0xA0–0xFF are Latin-1.
    static func utf8(fromWindows1252 bytes: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
            } else if byte < 0xA0 {
                append(UInt32(windows1252High[Int(byte) - 0x80]), to: &output)
            } else {
                append(UInt32(byte), to: &output)
            }
        }
        return output
    }

    /// U+FFFD, which stands for what cannot be decoded.
    static let replacementCharacter: UInt32 = 0xFFFD

    /// The code points of Windows-1252 bytes 0x80–0x9F; an undefined byte keeps its own value (a C1 control).
    private static let windows1252High: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// Appends the UTF-8 bytes of the code point `scalar` (a valid one, not a surrogate) to `output`.
    private static func append(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
