/// Guesses the delimiter from the first non-blank line of a file, fed to it in pieces.
///
/// Separators inside quoted text do not count. A line with tabs and no commas means tab; a line with semicolons
/// and neither commas nor tabs means semicolon; anything else means comma.
struct DelimiterSniffer {
    private var commas = 0
    private var tabs = 0
    private var semicolons = 0
    private var insideQuotes = false
    private var lineStarted = false
    /// Whether the first non-blank line has been seen to its end.
    private(set) var isComplete = false

    /// Scans more bytes of the file; returns `true` once the first non-blank line has ended (more bytes are then
    /// ignored).
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes {
            if isComplete { break }
            switch byte {
            case ASCII.quote:
                insideQuotes.toggle()
                lineStarted = true
            case ASCII.carriageReturn, ASCII.lineFeed:
                if insideQuotes { continue }
                if lineStarted { isComplete = true }
            case Delimiter.comma.rawValue:
                lineStarted = true
                if !insideQuotes { commas += 1 }
            case Delimiter.tab.rawValue:
                lineStarted = true
                if !insideQuotes { tabs += 1 }
            case Delimiter.semicolon.rawValue:
                lineStarted = true
                if !insideQuotes { semicolons += 1 }
            default:
                lineStarted = true
            }
        }
        return isComplete
    }

    /// The delimiter that the bytes seen so far suggest.
    var delimiter: Delimiter {
        if tabs > 0 && commas == 0 { return .tab }
        if semicolons > 0 && commas == 0 && tabs == 0 { return .semicolon }
        return .comma
    }

    /// The delimiter implied by a file name's extension: tab for `.tsv` and `.tab` (any letter case), else `nil`.
    static func delimiter(forFileName name: String) -> Delimiter? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "tsv", "tab": return .tab
        default: return nil
        }
    }
}
