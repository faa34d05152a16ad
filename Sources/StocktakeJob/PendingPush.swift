import Foundation

/// A push that failed and waits to be retried first on the next run, stored as `STATE/<account>/pending-push.json`.
///
/// The run command reads it to push the waiting `cleaned.csv` before anything else and to say "push pending since …".
public struct PendingPush: Codable, Sendable, Equatable {
    /// When the push first failed; later failures keep this date.
    public var since: Date
    /// The id of the run whose `cleaned.csv` waits to be pushed.
    public var runID: String
    /// Where it goes: the central sheet's URL with credentials removed, or a path.
    public var target: String
    /// What failed, in plain words.
    public var reason: String

    public init(since: Date, runID: String, target: String, reason: String) {
        self.since = since
        self.runID = runID
        self.target = target
        self.reason = reason
    }
}
