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
    /// Page faults of the child and its waited-for descendants: each first touch of a page of memory (or a write to
    /// one shared with a parent) and each mapping of a file's pages. Unlike the times, the count hardly moves from run
    /// to run, so it shows what a change did to the memory a run touches on a host whose cost per fault varies.
    var pageFaults: Int = 0

    /// User plus system CPU seconds.
    var cpuSeconds: Double { userSeconds + systemSeconds }
}
