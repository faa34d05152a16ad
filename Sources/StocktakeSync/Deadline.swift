import Dispatch

/// The moment by which a whole exchange, retries and waits included, must be over; measured on the monotonic clock
/// so a change of the system time neither shortens nor stretches it.
struct Deadline: Sendable {
    /// The deadline as configured, for messages.
    let seconds: Int
    private let end: UInt64

    init(seconds: Int, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        self.seconds = seconds
        end = now &+ UInt64(max(0, seconds)) &* 1_000_000_000
    }

    /// Seconds left; 0 once the deadline is reached (a few milliseconds early count as reached, since libcurl's
    /// timer and this one do not start at the same instant).
    var remaining: Double {
        let now = DispatchTime.now().uptimeNanoseconds
        guard end > now else { return 0 }
        let left = Double(end - now) / 1e9
        return left < 0.01 ? 0 : left
    }

    /// The error that ends an exchange with `url` at the deadline after `tries` tries.
    func exceeded(_ url: EndpointURL, tries: Int) -> HTTPError {
        .deadlineExceeded(url: url.redacted, seconds: seconds, tries: tries)
    }
}
