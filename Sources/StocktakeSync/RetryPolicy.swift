import Foundation

/// When and how long to wait before trying an exchange again.
///
/// `429` and `503` honour `Retry-After`; other `5xx` statuses and transient transport failures back off
/// exponentially with full jitter. Other `4xx` statuses are never retried. Waits are capped so a cron run ends.
public struct RetryPolicy: Sendable, Hashable {
    /// Tries in all, the first included.
    public var maximumAttempts = 4
    /// The first backoff, before jitter.
    public var baseDelaySeconds = 1.0
    /// The longest single backoff.
    public var maximumDelaySeconds = 60.0
    /// A `Retry-After` longer than this is not waited for: the exchange fails instead.
    public var maximumRetryAfterSeconds = 300.0

    public init() {}

    /// Whether a response with `status` may succeed when tried again.
    public static func isRetryable(status: Int) -> Bool {
        status == 429 || status == 500 || status == 502 || status == 503 || status == 504
    }

    /// Seconds to wait before try number `attempt + 1` (attempt counts from 1), or `nil` to stop.
    public func delay(
        afterAttempt attempt: Int, status: Int?, retryAfter: String?, now: Date = Date(),
        random: (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) -> Double? {
        guard attempt < maximumAttempts else { return nil }
        if let status, status == 429 || status == 503, let retryAfter,
            let seconds = Self.seconds(retryAfter: retryAfter, now: now)
        {
            return seconds <= maximumRetryAfterSeconds ? seconds : nil
        }
        let ceiling = min(maximumDelaySeconds, baseDelaySeconds * pow(2, Double(attempt - 1)))
        return random(0...ceiling)
    }

    /// A `Retry-After` value in seconds: delta-seconds or an HTTP-date.
    public static func seconds(retryAfter: String, now: Date) -> Double? {
        let text = retryAfter.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return Double(seconds) }
        guard let seconds = HTTPDate.secondsSinceEpoch(text) else { return nil }
        return max(0, Double(seconds) - now.timeIntervalSince1970)
    }
}
