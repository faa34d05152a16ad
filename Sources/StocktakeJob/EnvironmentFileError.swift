import StocktakeCore

/// Why `stocktake run --env-file FILE` refuses the file. Every case is a configuration error (exit 78); no message
/// ever shows a value from the file, since the file holds tokens.
public enum EnvironmentFileError: UserFacingError, Hashable {
    /// The file cannot be opened or read.
    case unreadable(path: String, reason: String)
    /// The file is not a regular file.
    case notAFile(path: String)
    /// Its group or others can write it, or others can read it.
    case unsafeMode(path: String, mode: UInt32)
    /// A line is not `NAME=VALUE`, a comment or blank.
    case badLine(path: String, line: Int, problem: String)

    public var exitStatus: ExitStatus { .configuration }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read the environment file \(path): \(reason). Check the path given to --env-file."
        case .notAFile(let path):
            return "the environment file \(path) is not a regular file. Give --env-file the file itself."
        case .unsafeMode(let path, let mode):
            var who: [String] = []
            if mode & 0o020 != 0 { who.append("its group can write it") }
            if mode & 0o004 != 0 { who.append("others can read it") }
            if mode & 0o002 != 0 { who.append("others can write it") }
            let listed = who.joined(separator: ", ")
            return "refusing the environment file \(path): it has mode \(String(mode & 0o777, radix: 8)) and "
                + "\(listed), but it may hold tokens. Run chmod 600 \(path) (or 640 to let its group read it)."
        case .badLine(let path, let line, let problem):
            return "the environment file \(path): line \(line) \(problem). Write NAME=VALUE, NAME='VALUE' or "
                + "export NAME=VALUE, one a line."
        }
    }
}
