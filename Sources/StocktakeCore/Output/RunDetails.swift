import Foundation

/// Facts about one run that are not part of the reconciliation itself: who, when, how long, where to.
public struct RunDetails: Sendable {
    /// The account the run is for: its folder name, as logs and `run.json` name it.
    public var account: String
    /// The account's name for people (`name` in `account.json`), which the report's title shows; the folder name
    /// when the account gives none.
    public var displayName: String
    /// The zone the report states the run's time in (`timeZone` in `account.json`; UTC by default).
    public var timeZone = ReportTimeZone.utc
    /// Every cell the write-back planned to change (`changes.csv`), pushed or not; the report groups them by column.
    public var changes: SheetChanges = []
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
    /// The failures the run simulates (`--simulate-failure`, `testFailureMode`), recorded in `run.json` and
    /// `summary.txt`.
    public var simulation = FailureSimulation()

    public init(account: String, started: Date, outputDirectory: String) {
        self.account = account
        self.displayName = account
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

    /// A timestamp in ISO 8601, UTC, to the second (the fraction dropped): `2026-11-20T06:00:00Z`.
    ///
    /// Formatted from the calendar fields `gmtime_r` gives, not by `ISO8601DateFormatter`: creating one loads ICU's
    /// calendar and time zone data, which cost each account's process more than a millisecond for a few stamps.
    public static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var text: [UInt8] = []
        text.reserveCapacity(20)
        func append(_ value: Int32, digits: Int, then separator: Character) {
            var divisor: Int32 = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
            text.append(separator.asciiValue!)
        }
        append(parts.tm_year + 1900, digits: 4, then: "-")
        append(parts.tm_mon + 1, digits: 2, then: "-")
        append(parts.tm_mday, digits: 2, then: "T")
        append(parts.tm_hour, digits: 2, then: ":")
        append(parts.tm_min, digits: 2, then: ":")
        append(parts.tm_sec, digits: 2, then: "Z")
        return String(decoding: text, as: UTF8.self)
    }
}
