/// Field separator of a delimited text file.
///
/// The raw value is the separator byte, so the tokenizer compares bytes without decoding text.
public enum Delimiter: UInt8, Sendable, CaseIterable {
    /// `,` — CSV as written by most spreadsheets.
    case comma = 0x2C
    /// Horizontal tab — TSV files and copy-paste exports.
    case tab = 0x09
    /// `;` — CSV written by spreadsheets in locales that use the comma as decimal separator.
    case semicolon = 0x3B

    /// A lowercase word naming the separator for messages and `inspect` output: "comma", "tab" or "semicolon".
    public var name: String {
        switch self {
        case .comma: return "comma"
        case .tab: return "tab"
        case .semicolon: return "semicolon"
        }
    }
}
