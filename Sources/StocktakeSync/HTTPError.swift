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
            "\(url) sent more than \(limit / (1 << 20)) MB, the configured maximum. Check the URL points at the "
                + "sheet, or raise the download limit."
        case .tooManyRedirects(let url):
            "\(url) redirected too many times. Check the address."
        case .redirectedElsewhere(let url, let target):
            "\(url) redirected to another server (\(target)); stocktake does not send data there. Check the address."
        case .transfer(let url, let reason):
            "\(url): the transfer failed (\(reason)). Try again later."
        }
    }

    /// Whether trying again later may help.
    public var isTransient: Bool {
        switch self {
        case .connectionFailed, .timedOut, .transfer: true
        case .invalidURL, .insecureURL, .tooLarge, .tooManyRedirects, .redirectedElsewhere: false
        }
    }
}
