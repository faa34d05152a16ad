import StocktakeCore

/// Why an HTTP exchange could not be completed. Statuses are not errors here; providers judge them.
public enum HTTPError: Error, Equatable, CustomStringConvertible {
    /// The text is not an http(s) URL.
    case invalidURL(String)
    /// Plain http to a host that is not this machine.
    case insecureURL(String)
    /// The server could not be reached (name not found, connection refused, TLS failure).
    case connectionFailed(url: String, reason: String)
    /// No answer, or a stalled one, within the configured time.
    case timedOut(url: String, seconds: Int)
    /// The answer is larger than the configured maximum.
    case tooLarge(url: String, limit: Int)
    /// More redirects than allowed.
    case tooManyRedirects(url: String)
    /// A request carrying data (a sheet, a client secret) was redirected to another server; it is not re-sent there.
    case redirectedElsewhere(url: String, to: String)
    /// Anything else libcurl reported.
    case transfer(url: String, reason: String)
    /// The exchange, retries and waits included, did not finish within `TransferLimits.deadlineSeconds`.
    case deadlineExceeded(url: String, seconds: Int, tries: Int)

    public var description: String {
        switch self {
        case .invalidURL(let url):
            "\(url) is not an http or https URL. Check the address."
        case .insecureURL(let url):
            "\(url) uses plain http, which would send credentials unencrypted. Use https:// (plain http is only "
                + "allowed to this machine)."
        case .connectionFailed(let url, let reason):
            "\(url) could not be reached (\(reason)). Check the address and the network, and try again later."
        case .timedOut(let url, let seconds):
            "\(url) did not answer within \(seconds) seconds. Try again later, or raise the timeout."
        case .tooLarge(let url, let limit):
            "\(url) sent more than \(Self.size(limit)), the configured maximum. Check the URL points at the "
                + "sheet, or raise the download limit."
        case .tooManyRedirects(let url):
            "\(url) redirected too many times. Check the address."
        case .redirectedElsewhere(let url, let target):
            "\(url) redirected to another server (\(target)); stocktake does not send data there. Check the address."
        case .transfer(let url, let reason):
            "\(url): the transfer failed (\(reason)). Try again later."
        case .deadlineExceeded(let url, let seconds, let tries):
            "\(url) did not finish within the deadline of \(seconds) seconds (\(counted(tries, "try", "tries")) made). "
                + "Try again later, or raise the deadline."
        }
    }

    /// A byte count as people read it: "512 MB", "64 KB", "900 bytes".
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    /// Whether trying again later may help.
    public var isTransient: Bool {
        switch self {
        case .connectionFailed, .timedOut, .transfer: true
        case .invalidURL, .insecureURL, .tooLarge, .tooManyRedirects, .redirectedElsewhere, .deadlineExceeded: false
        }
    }

    /// The same error with `scrub` applied to every text in it: addresses and reasons may come from a server
    /// (a `Location` header, a path with a title the server chose), so secrets are taken out of them before they
    /// are shown or stored.
    public func scrubbed(_ scrub: (String) -> String) -> HTTPError {
        switch self {
        case .invalidURL(let url): .invalidURL(scrub(url))
        case .insecureURL(let url): .insecureURL(scrub(url))
        case .connectionFailed(let url, let reason): .connectionFailed(url: scrub(url), reason: scrub(reason))
        case .timedOut(let url, let seconds): .timedOut(url: scrub(url), seconds: seconds)
        case .tooLarge(let url, let limit): .tooLarge(url: scrub(url), limit: limit)
        case .tooManyRedirects(let url): .tooManyRedirects(url: scrub(url))
        case .redirectedElsewhere(let url, let target): .redirectedElsewhere(url: scrub(url), to: scrub(target))
        case .transfer(let url, let reason): .transfer(url: scrub(url), reason: scrub(reason))
        case .deadlineExceeded(let url, let seconds, let tries):
            .deadlineExceeded(url: scrub(url), seconds: seconds, tries: tries)
        }
    }
}
