/// Trimming of spaces around a configured location, as Foundation's `trimmingCharacters(in: .whitespaces)` trims
/// (Unicode's space separators, the tab and the zero-width space; line breaks stay), without Foundation: its
/// character sets are built from Unicode tables the first time one is used, which cost every account's process
/// about 0.3 ms even when all its sheets are local files.
enum Whitespace {
    /// `text` without the spaces and tabs at either end.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0) })!
        return String(scalars[first...last])
    }

    /// Whether `scalar` is a space separator (general category Zs), a tab, or the zero-width space U+200B, which
    /// Foundation's set still counts as a space (Unicode did until version 4.0.1).
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }
}
