import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why an account's child process gave no outcome: the reason its line in the summary gives.
///
/// Classified from what the kernel reports (the wait status, the child's peak memory, whether the parent stopped
/// it), never from anything the child printed.
public enum AccountProcessFailure: Error, Hashable, CustomStringConvertible {
    /// The parent stopped the child at its `rules.maxMinutes` limit.
    case timeLimit(minutes: Double)
    /// A signal ended the child after it had used at least half of its `rules.maxMemoryMB` limit: an allocation
    /// failed against the limit (the Swift runtime aborts then) or the kernel's out-of-memory killer chose it.
    case memoryLimit(megabytes: Int)
    /// Another signal ended the child.
    case crashed(signal: Int32)
    /// The child exited without writing its result line.
    case noResult(status: Int32)
    /// The child could not be started at all (`posix_spawn` failed with this errno).
    case cannotStart(program: String, code: Int32)

    /// The reason, as it follows "failed: " in the account's summary line.
    public var description: String {
        switch self {
        case .timeLimit(let minutes):
            return "ran out of its \(Self.duration(minutes)) time limit"
        case .memoryLimit(let megabytes):
            return "ran out of its \(Self.grouped(megabytes)) MB memory limit"
        case .crashed(let signal):
            let name = Self.signalNames[signal].map { ", \($0)" } ?? ""
            return "its process crashed (signal \(signal)\(name))"
        case .noResult(let status):
            return "its process ended with status \(status) without a result"
        case .cannotStart(let program, let code):
            return "its process could not be started from \(program): \(String(cString: strerror(code)))"
        }
    }

    /// What the admin can do about it, for the log.
    public var advice: String {
        switch self {
        case .timeLimit:
            return "If the account really needs longer, raise rules.maxMinutes in its account.json; "
                + "otherwise check that its servers answer."
        case .memoryLimit:
            return "If the account really needs more, raise rules.maxMemoryMB in its account.json; "
                + "otherwise check its files for runaway rows."
        case .crashed, .noResult:
            return "The lines above from this account say how far it got; it runs again on the next run."
        case .cannotStart:
            return "Check that the stocktake program is still installed and executable."
        }
    }

    /// "30-minute", "1,440-minute"; a limit that is not a whole number of minutes in seconds: "3-second".
    static func duration(_ minutes: Double) -> String {
        if minutes == minutes.rounded(), minutes >= 1 { return "\(grouped(Int(minutes)))-minute" }
        return "\(grouped(Int((minutes * 60).rounded())))-second"
    }

    /// A whole number with thousands separators: 2,048.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }

    /// The names of the signals that end processes, for messages.
    static let signalNames: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
        SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
        SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
        SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS",
    ]
}
