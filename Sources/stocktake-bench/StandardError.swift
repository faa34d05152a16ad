import Foundation

/// Writes lines to the standard error stream.
enum StandardError {
    /// Writes `line` and a line feed to standard error.
    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
