/// Makes text that comes from data safe to write inside one line of a terminal, a log or `summary.txt`.
///
/// Cells, headers and file names are written by whoever made the spreadsheet. A line break in a header cell would
/// otherwise start a forged line of its own (a fake "pushed" log line, a fake account summary), and an escape
/// sequence would be run by the terminal. So C0 controls, DEL, C1 controls (U+0080–U+009F) and the Unicode line and
/// paragraph separators are shown as visible escapes instead: `\n`, `\r`, `\t`, `\x1B`, `\x7F`, `\u{85}`,
/// `\u{2028}`. Everything else is kept as it is. JSON and CSV outputs do not need this: their own quoting keeps
/// such characters inside the value.
public enum ControlCharacters {
    /// `text` with every control character and line or paragraph separator written as a visible escape.
    public static func escaped(_ text: String) -> String {
        guard needsEscaping(text.utf8) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x00..<0x20, 0x7F: result += "\\x" + hexadecimal(scalar.value, digits: 2)
            case 0x80...0x9F, 0x2028, 0x2029: result += "\\u{" + hexadecimal(scalar.value, digits: 1) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A quick look at the bytes: `false` means nothing needs escaping. Control bytes and DEL are escaped, and C1
    /// controls (`C2 80`–`C2 9F`) and U+2028/U+2029 (`E2 80 A8`/`A9`) start with `C2` or `E2`; those leads are
    /// then checked character by character.
    private static func needsEscaping(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }
    }

    /// `value` in uppercase hexadecimal, with at least `digits` digits.
    private static func hexadecimal(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
