/// The encoding a text file was written in, decided once per file before its fields are split.
///
/// UTF-8 is read as it is. UTF-16 (Excel's "Unicode Text") and Windows-1252 (what Excel on Windows saves as "CSV")
/// are turned into UTF-8 as they are read, so the tokenizer only ever sees UTF-8 bytes.
///
/// Without a setting, a UTF-8 or UTF-16 byte-order mark names the encoding, and text without one is UTF-8 when the
/// whole file is well-formed UTF-8, else Windows-1252. A source can name its encoding instead (`init(name:)`); a
/// byte-order mark still wins, because it cannot be wrong.
public enum TextEncoding: String, Sendable, Hashable, CaseIterable {
    case utf8 = "UTF-8"
    case utf16LittleEndian = "UTF-16 LE"
    case utf16BigEndian = "UTF-16 BE"
    case windows1252 = "Windows-1252"

    /// The encoding an account's `encoding` setting names, ignoring case: "utf-8"; "windows-1252", or its aliases
    /// "cp1252", "latin-1" and "iso-8859-1" (which the WHATWG Encoding Standard, and so every browser, also reads as
    /// Windows-1252); "utf-16" or "utf-16le" (little-endian, as Excel writes it); "utf-16be". `nil` for any other.
    public init?(name: String) {
        switch name.lowercased() {
        case "utf-8", "utf8": self = .utf8
        case "windows-1252", "cp1252", "latin-1", "latin1", "iso-8859-1": self = .windows1252
        case "utf-16", "utf-16le": self = .utf16LittleEndian
        case "utf-16be": self = .utf16BigEndian
        default: return nil
        }
    }

    /// The names `init(name:)` accepts, for a message about a setting it does not know.
    public static let acceptedNames =
        "\"utf-8\", \"windows-1252\" (or \"cp1252\", \"latin-1\", \"iso-8859-1\"), \"utf-16\" (\"utf-16le\") "
        + "and \"utf-16be\""

    /// The note a report shows for a file read in this encoding without a setting naming it, or `nil` when the
    /// encoding is certain (UTF-8, or UTF-16 named by its byte-order mark). Windows-1252 is then only a guess made
    /// because the file is not UTF-8.
    public var note: String? {
        switch self {
        case .windows1252: "read as Windows-1252 because it is not UTF-8; save it as \"CSV UTF-8\" to be sure"
        case .utf8, .utf16LittleEndian, .utf16BigEndian: nil
        }
    }
}
