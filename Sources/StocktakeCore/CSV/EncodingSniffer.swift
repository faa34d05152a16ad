/// Recognises, from the first bytes of a file, UTF-16 text the reader decodes and text in an encoding it does not.
///
/// A byte-order mark names UTF-16 or UTF-32 for certain; UTF-16 with one is decoded, UTF-32 is refused. Without
/// one, spreadsheet text, which is mostly ASCII (headers, tags, serials), has in UTF-16 a NUL in nearly every other
/// byte, always on the same side of each pair, and in UTF-32 three NULs in every four bytes. UTF-8 text holds NULs
/// only by accident, so a few NULs, or NULs on both sides alike (a file of zeros), never make it UTF-16 or UTF-32.
enum EncodingSniffer {
    /// How many bytes at the start of a file are looked at: enough for a header and a few rows.
    static let sampleSize = 4096

    /// The UTF-8 byte-order mark, which the reader skips.
    static let utf8ByteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The name of the encoding of `sample` (the first bytes of a file, up to `sampleSize` are used) when it is
    /// one the reader refuses, such as "UTF-32 LE" or "UTF-16 BE without a byte-order mark"; `nil` for text the
    /// reader reads (UTF-8, UTF-16 with a byte-order mark, Windows-1252).
    /// When `utf16Expected` (a setting names UTF-16), UTF-16 without a byte-order mark is read, not refused.
    static func unsupportedEncoding(of sample: ArraySlice<UInt8>, utf16Expected: Bool = false) -> String? {
        let bytes = sample.prefix(sampleSize)
        if bytes.starts(with: utf8ByteOrderMark) { return nil }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return "UTF-32 LE" }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return "UTF-32 BE" }
        if utf16Encoding(of: bytes) != nil { return nil }
        guard let found = withoutByteOrderMark(bytes), !(utf16Expected && found.hasPrefix("UTF-16")) else { return nil }
        return found + " without a byte-order mark"
    }

    /// UTF-16 LE or BE when `sample` starts with that byte-order mark (and not with UTF-32's), else `nil`.
    static func utf16Encoding(of sample: ArraySlice<UInt8>) -> TextEncoding? {
        if sample.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return nil }
        if sample.starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
        if sample.starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
        return nil
    }

    /// "UTF-32 LE", "UTF-32 BE", "UTF-16 LE" or "UTF-16 BE" when the NULs in `bytes` fall as in that encoding.
    private static func withoutByteOrderMark(_ bytes: ArraySlice<UInt8>) -> String? {
        let start = bytes.startIndex
        // UTF-32: a character below U+0100 is one non-NUL byte and three NULs.
        let quads = bytes.count / 4
        if quads >= 1 {
            var littleEndian = 0
            var bigEndian = 0
            for quad in 0..<quads {
                let base = start + quad * 4
                let first = bytes[base]
                let middle = bytes[base + 1] | bytes[base + 2]
                let last = bytes[base + 3]
                if middle == 0 && last == 0 && first != 0 { littleEndian += 1 }
                if middle == 0 && first == 0 && last != 0 { bigEndian += 1 }
            }
            if isMost(littleEndian, of: quads) { return "UTF-32 LE" }
            if isMost(bigEndian, of: quads) { return "UTF-32 BE" }
        }
        // UTF-16: a character below U+0100 is one non-NUL byte and one NUL.
        let pairs = bytes.count / 2
        guard pairs >= 2 else { return nil }
        var nulFirst = 0
        var nulSecond = 0
        for pair in 0..<pairs {
            let base = start + pair * 2
            if bytes[base] == 0 { nulFirst += 1 }
            if bytes[base + 1] == 0 { nulSecond += 1 }
        }
        if isMost(nulSecond, of: pairs) && isRare(nulFirst, of: pairs) { return "UTF-16 LE" }
        if isMost(nulFirst, of: pairs) && isRare(nulSecond, of: pairs) { return "UTF-16 BE" }
        return nil
    }

    /// Whether `count` is at least half of `total`: text that is not all ASCII still leaves that many NULs.
    private static func isMost(_ count: Int, of total: Int) -> Bool {
        count * 2 >= total
    }

    /// Whether `count` is at most an eighth of `total`: the side of a UTF-16 pair that holds the ASCII byte.
    private static func isRare(_ count: Int, of total: Int) -> Bool {
        count * 8 <= total
    }
}
