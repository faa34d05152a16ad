/// A file-level problem that stops reading a delimited text file.
///
/// Each description is a sentence a clerk can act on: it names the file and says what to do.
public enum CSVError: Error, Equatable, CustomStringConvertible {
    /// A quoted field opened on `line` (1-based) and the file ended before it was closed.
    case unterminatedQuote(file: String, line: Int)
    /// The file is in an encoding other than UTF-8, such as "UTF-16 LE" (named by its byte-order mark) or
    /// "UTF-16 LE without a byte-order mark" (recognised by its NUL bytes).
    case unsupportedEncoding(file: String, encoding: String)
    /// The file could not be opened or read; `reason` is the system's explanation, e.g. "No such file or directory".
    case unreadable(file: String, reason: String)

    /// One line naming the file, what is wrong and what to do about it.
    public var description: String {
        switch self {
        case .unterminatedQuote(let file, let line):
            return "\(file): a quoted field opened on line \(line) is never closed. "
                + "Look for a stray \" on that line and save the file again."
        case .unsupportedEncoding(let file, let encoding):
            return "\(file): the file is encoded as \(encoding), which cannot be read. "
                + "Open it in a spreadsheet and save it as \"CSV UTF-8\"."
        case .unreadable(let file, let reason):
            return
                "\(file): the file cannot be read (\(reason)). Check that the path is right and the file is readable."
        }
    }
}
