/// Excel's escapes for characters XML cannot carry: `_xHHHH_` is the UTF-16 code unit HHHH (`_x000D_` is a
/// carriage return), and `_x005F_` escapes an underscore that would otherwise start such an escape.
///
/// They appear in the texts of shared and inline strings, where Excel writes them and every reader decodes them.
enum ExcelEscape {
    /// Decodes the escapes in `bytes[start...]` in place (a decoded character is never longer than its escape).
    static func decode(_ bytes: inout [UInt8], from start: Int) {
        let end = bytes.count
        guard end - start >= 7, bytes[start...].contains(UInt8(ascii: "_")) else { return }
        var read = start
        var write = start
        while read < end {
            if bytes[read] == UInt8(ascii: "_"), let unit = codeUnit(bytes, at: read) {
                var scalar = Unicode.Scalar(unit)
                var length = 7
                if UTF16.isLeadSurrogate(unit), let trail = codeUnit(bytes, at: read + 7), UTF16.isTrailSurrogate(trail)
                {
                    scalar = Unicode.Scalar((UInt32(unit) - 0xD800) << 10 + (UInt32(trail) - 0xDC00) + 0x10000)
                    length = 14
                }
                if let scalar {
                    for byte in UTF8.encode(scalar)! {
                        bytes[write] = byte
                        write += 1
                    }
                    read += length
                    continue
                }
            }
            bytes[write] = bytes[read]
            write += 1
            read += 1
        }
        bytes.removeLast(end - write)
    }

    /// The code unit of a `_xHHHH_` escape at `index`, or nil when there is none.
    private static func codeUnit(_ bytes: [UInt8], at index: Int) -> UInt16? {
        guard index + 7 <= bytes.count, bytes[index] == UInt8(ascii: "_"), bytes[index + 1] == UInt8(ascii: "x"),
            bytes[index + 6] == UInt8(ascii: "_")
        else { return nil }
        var value: UInt32 = 0
        for offset in 2..<6 {
            guard let digit = XMLScanner.digitValue(bytes[index + offset], radix: 16) else { return nil }
            value = value << 4 + digit
        }
        return UInt16(value)
    }
}
