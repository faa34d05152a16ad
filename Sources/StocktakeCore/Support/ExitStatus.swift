/// Process exit statuses, following the BSD `sysexits.h` convention cron wrappers understand.
public enum ExitStatus: Int32, Sendable {
    /// The command ran; discrepancies are normal output.
    case success = 0
    /// The command line was wrong.
    case usage = 64
    /// An input file was read but its contents are unusable.
    case dataError = 65
    /// An input file does not exist or cannot be opened.
    case noInput = 66
    /// A source could not be fetched from its server.
    case unavailable = 69
    /// An output file or folder cannot be created.
    case cannotCreate = 73
    /// Reading or writing failed midway (disk full, I/O error).
    case ioError = 74
    /// A push could not be done now (changed since pull, server unavailable); the outputs are kept. Try again later.
    case temporaryFailure = 75
    /// Credentials were rejected or a secrets file is unsafe.
    case noPermission = 77
    /// The configuration is wrong.
    case configuration = 78
}
