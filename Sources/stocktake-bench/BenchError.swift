/// Why a benchmark could not be run or measured (wrong findings are not errors: they are its result).
enum BenchError: Error, CustomStringConvertible, Equatable {
    /// The program to measure is not where it must be.
    case programMissing(path: String, fix: String)
    /// The program could not be started, or waited for.
    case cannotStart(program: String, reason: String)
    /// The measured program ended badly; `log` holds the last lines of its standard error.
    case programFailed(program: String, outcome: ProcessOutcome, log: String)
    /// A file the benchmark needs cannot be read.
    case cannotRead(path: String, reason: String)
    /// A file or folder cannot be written.
    case cannotWrite(path: String, reason: String)
    /// The generator refused its options.
    case cannotGenerate(reason: String)

    var description: String {
        switch self {
        case .programMissing(let path, let fix):
            "\(path) does not exist or is not executable; \(fix)"
        case .cannotStart(let program, let reason):
            "\(program) cannot be started: \(reason)."
        case .programFailed(let program, let outcome, let log):
            "\(program) \(outcome.description), so there is nothing to measure"
                + (log.isEmpty ? "." : "; its last messages:\n" + log)
        case .cannotRead(let path, let reason):
            "\(path) cannot be read: \(reason)."
        case .cannotWrite(let path, let reason):
            "\(path) cannot be written: \(reason)."
        case .cannotGenerate(let reason):
            "the account cannot be generated: \(reason)"
        }
    }

    /// The exit status: 66 an input cannot be read, 69 a program is missing or failed, 73 data cannot be written
    /// or generated.
    var exitStatus: Int32 {
        switch self {
        case .cannotRead: 66
        case .programMissing, .cannotStart, .programFailed: 69
        case .cannotWrite, .cannotGenerate: 73
        }
    }
}
