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
    /// An output file or folder cannot be created.
    case cannotCreate = 73
    /// Reading or writing failed midway (disk full, I/O error).
    case ioError = 74
}
