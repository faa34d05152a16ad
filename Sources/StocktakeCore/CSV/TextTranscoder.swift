/// Turns UTF-16 or Windows-1252 text into UTF-8 bytes piece by piece, so the tokenizer only ever reads UTF-8 and a
/// file of any size is converted in one chunk of memory.
///
/// A piece may end anywhere: inside a UTF-16 code unit (an odd byte) or between the two halves of a surrogate pair;
/// what is cut is kept and finished with the next piece. `finish` then ends the text.
struct TextTranscoder {
    /// The encoding converted from: `.utf16LittleEndian`, `.utf16BigEndian` or `.windows1252` (`.utf8` copies).
    let encoding: TextEncoding
    /// The first byte of a UTF-16 code unit whose second byte is in the next piece.
    private var pendingByte: UInt8?
    /// A high surrogate whose low surrogate may start the next piece.
    private var pendingHighSurrogate: UInt32?

    init(from encoding: TextEncoding) {
        self.encoding = encoding
    }

    /// Appends the UTF-8 form of the next piece of the text to `output`.
    mutating func convert(_ piece: UnsafeBufferPointer<UInt8>, appendingTo output: inout [UInt8]) {
        switch encoding {
        case .utf8:
            output.append(contentsOf: piece)
        case .windows1252:
            output.reserveCapacity(output.count + piece.count + piece.count / 8)
            for byte in piece {
                if byte < 0x80 {
                    output.append(byte)
                } else if byte < 0xA0 {
                    Self.append(UInt32(Self.windows1252High[Int(byte) - 0x80]), to: &output)
                } else {
                    Self.append(UInt32(byte), to: &output)
                }
            }
        case .utf16LittleEndian, .utf16BigEndian:
            output.reserveCapacity(output.count + piece.count)
            let bigEndian = encoding == .utf16BigEndian
            var index = 0
            if let first = pendingByte, !piece.isEmpty {
                pendingByte = nil
                take(Self.unit(first, piece[0], bigEndian: bigEndian), appendingTo: &output)
                index = 1
            }
            while index + 1 < piece.count {
                take(Self.unit(piece[index], piece[index + 1], bigEndian: bigEndian), appendingTo: &output)
                index += 2
            }
            if index < piece.count { pendingByte = piece[index] }
        }
    }

    /// Ends the text: a high surrogate without its low half, and a last odd byte, each become U+FFFD, as every
    /// decoder following the Unicode standard does.
    mutating func finish(appendingTo output: inout [UInt8]) {
        if pendingHighSurrogate != nil {
            pendingHighSurrogate = nil
            Self.append(Self.replacementCharacter, to: &output)
        }
        if pendingByte != nil {
            pendingByte = nil
            Self.append(Self.replacementCharacter, to: &output)
        }
    }

    /// The whole of `bytes` converted (tests, and sheets already in memory).
    static func utf8(from encoding: TextEncoding, _ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var transcoder = TextTranscoder(from: encoding)
        var output: [UInt8] = []
        bytes.withUnsafeBufferPointer { transcoder.convert($0, appendingTo: &output) }
        transcoder.finish(appendingTo: &output)
        return output
    }

    /// Takes one UTF-16 code unit: pairs surrogates, and replaces a surrogate without its other half by U+FFFD.
    private mutating func take(_ unit: UInt32, appendingTo output: inout [UInt8]) {
        if let high = pendingHighSurrogate {
            pendingHighSurrogate = nil
            if unit >= 0xDC00 && unit <= 0xDFFF {
                Self.append(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00), to: &output)
                return
            }
            Self.append(Self.replacementCharacter, to: &output)
        }
        switch unit {
        case 0xD800...0xDBFF: pendingHighSurrogate = unit
        case 0xDC00...0xDFFF: Self.append(Self.replacementCharacter, to: &output)
        default: Self.append(unit, to: &output)
        }
    }

    private static func unit(_ first: UInt8, _ second: UInt8, bigEndian: Bool) -> UInt32 {
        bigEndian ? UInt32(first) << 8 | UInt32(second) : UInt32(second) << 8 | UInt32(first)
    }

    /// U+FFFD, which stands for what cannot be decoded.
    static let replacementCharacter: UInt32 = 0xFFFD

    /// The code points of Windows-1252 bytes 0x80–0x9F. The five bytes the code page leaves undefined (0x81, 0x8D,
    /// 0x8F, 0x90, 0x9D) keep their own value, a C1 control, as the WHATWG Encoding Standard (and so every browser)
    /// decodes them: no byte is lost, and writing the text back in Windows-1252 gives the same bytes.
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
