import Foundation

/// Stands in for `HTTPClient.sleep`: returns at once and remembers how long each wait would have been, so tests
/// run fast and can assert the waits exactly.
final class SleepRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Double] = []

    /// The waits asked for so far, in order.
    var waits: [Double] {
        lock.withLock { recorded }
    }

    /// The function to hand to `HTTPClient(sleep:)`.
    var sleep: @Sendable (Double) -> Void {
        { [self] seconds in lock.withLock { recorded.append(seconds) } }
    }
}
