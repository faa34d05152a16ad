/// What one child process cost: its wall time, its CPU time and the most memory it (or any process it waited
/// for) held at once.
struct ProcessMeasurement: Sendable, Equatable {
    /// Seconds from starting the process to reaping it.
    var wallSeconds: Double
    /// CPU seconds in user mode, the child's and those of every descendant it waited for.
    var userSeconds: Double
    /// CPU seconds in the kernel on behalf of the child and its waited-for descendants.
    var systemSeconds: Double
    /// The largest resident set of the child or of any one of its waited-for descendants, in bytes.
    var peakResidentBytes: Int

    /// User plus system CPU seconds.
    var cpuSeconds: Double { userSeconds + systemSeconds }
}
