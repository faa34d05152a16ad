/// How a measured child process ended.
enum ProcessOutcome: Sendable, Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signaled(Int32)

    /// Whether it exited with status 0.
    var succeeded: Bool { self == .exited(0) }

    /// "exited with status 3", "was killed by signal 9", for messages.
    var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signaled(let signal): "was killed by signal \(signal)"
        }
    }
}
