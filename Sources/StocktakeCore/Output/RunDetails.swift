import Foundation

/// Facts about one run that are not part of the reconciliation itself: who, when, how long, where to.
public struct RunDetails: Sendable {
    /// The account the run is for.
    public var account: String
    public var started: Date
    public var finished: Date
    /// Named phases and their wall time in seconds, in order (read, reconcile, write).
    public var durations: [(phase: String, seconds: Double)]
    /// The folder the outputs are written to.
    public var outputDirectory: String
    /// What was pushed where; empty for a local run.
    public var pushes: [String]
    public var exitStatus: ExitStatus
    /// Whether a push replaced the central sheet with its planned edit.
    public var pushedCentral = false

    public init(account: String, started: Date, outputDirectory: String) {
        self.account = account
        self.started = started
        self.finished = started
        self.durations = []
        self.outputDirectory = outputDirectory
        self.pushes = []
        self.exitStatus = .success
    }

    /// The path of an output file of this run.
    public func path(of file: String) -> String {
        (outputDirectory as NSString).appendingPathComponent(file)
    }

    /// A timestamp in ISO 8601, UTC, to the second.
    public static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
