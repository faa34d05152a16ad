/// Everything that stops a command, each with a one-line description that names the file and what to do.
public enum StocktakeError: Error, Equatable, CustomStringConvertible {
    /// The command line is wrong; the message says how.
    case usage(String)
    /// An input file or folder does not exist.
    case missingInput(path: String, what: String)
    /// An input exists but cannot be opened or read.
    case unreadableInput(path: String, reason: String)
    /// A spreadsheet could be read but cannot be used (no identifier column, broken quoting, wrong encoding).
    case badData(path: String, reason: String)
    /// A column mapping file is wrong.
    case badColumnMapping(path: String, header: String?, reason: String)
    /// An output file could not be written.
    case cannotWrite(path: String, reason: String)
    /// A real failure made on purpose by `--simulate-failure` or an account's `testFailureMode` (see
    /// `FailureSimulation`): the same error, its sentence after `label`.
    indirect case simulated(StocktakeError, label: String)

    /// The exit status the command ends with.
    public var exitStatus: ExitStatus {
        switch self {
        case .usage: .usage
        case .missingInput, .unreadableInput: .noInput
        case .badData, .badColumnMapping: .dataError
        case .cannotWrite: .cannotCreate
        case .simulated(let error, _): error.exitStatus
        }
    }

    public var description: String {
        switch self {
        case .usage(let message):
            return message
        case .missingInput(let path, let what):
            return "\(path): no such \(what). Check the path, or create it."
        case .unreadableInput(let path, let reason):
            return "\(path): \(reason)."
        case .badData(let path, let reason):
            return "\(path): \(reason)"
        case .badColumnMapping(let path, let header, let reason):
            if let header {
                return "\(path): the mapping of column \"\(header)\" is wrong: \(reason)."
            }
            return "\(path): the column mapping cannot be used: \(reason)."
        case .cannotWrite(let path, let reason):
            return "\(path): cannot write it: \(reason). "
                + "Check that the folder exists, is writable and the disk is not full."
        case .simulated(let error, let label):
            return "\(label) \(error)"
        }
    }
}
