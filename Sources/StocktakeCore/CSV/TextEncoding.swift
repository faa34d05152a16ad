/// The encoding a text file was written in, decided once per file before its fields are split.
///
/// UTF-8 is read as it is. UTF-16 with a byte-order mark (Excel's "Unicode Text") and Windows-1252 (what Excel on
/// Windows saves as "CSV") are turned into UTF-8 first, so the tokenizer only ever sees UTF-8 bytes.
public enum TextEncoding: String, Sendable, Equatable {
    case utf8 = "UTF-8"
    case utf16LittleEndian = "UTF-16 LE"
    case utf16BigEndian = "UTF-16 BE"
    case windows1252 = "Windows-1252"

    /// The note a report shows for a file read in this encoding, or `nil` when the encoding is certain (UTF-8, or
    /// UTF-16 named by its byte-order mark). Windows-1252 is only a guess made because the file is not UTF-8.
    public var note: String? {
        switch self {
        case .windows1252: "read as Windows-1252: it is not UTF-8; save it as CSV UTF-8 to be sure"
        case .utf8, .utf16LittleEndian, .utf16BigEndian: nil
        }
    }
}
