import Foundation

/// The last lines of a child's standard error, quoted in a failure message.
enum LogTail {
    /// The most lines quoted.
    static let lineCount = 10

    /// The last ``lineCount`` non-empty lines of the file at `path`, each indented by two spaces; empty when the
    /// file is empty or missing.
    static func read(_ path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        let lines = String(decoding: data.suffix(64 * 1024), as: UTF8.self).split(separator: "\n")
        return lines.suffix(lineCount).map { "  " + $0 }.joined(separator: "\n")
    }
}
