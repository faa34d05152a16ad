/// How long and how much one exchange may take; every field can be set per account.
public struct TransferLimits: Sendable, Hashable {
    /// Seconds to establish the connection (TCP and TLS).
    public var connectTimeoutSeconds = 20
    /// Seconds for one try of the exchange.
    public var totalTimeoutSeconds = 300
    /// Seconds for the whole exchange, every try and every wait between tries included: a server that keeps
    /// stalling costs at most this long, and each try's timeout is cut to the time left.
    public var deadlineSeconds = 600
    /// An exchange slower than `lowSpeedBytesPerSecond` for `lowSpeedSeconds` is aborted (a stalled server).
    public var lowSpeedBytesPerSecond = 1
    public var lowSpeedSeconds = 30
    /// The largest response body accepted.
    public var maximumDownloadBytes = 512 << 20
    /// Redirects followed before giving up.
    public var maximumRedirects = 5
    /// A CA bundle to trust instead of the system's, for private certificate authorities.
    public var caFile: String?

    public init() {}
}
