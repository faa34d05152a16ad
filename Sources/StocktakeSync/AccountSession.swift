import StocktakeCore

/// An HTTP client bound to one account: its credentials, and the only origins its token may be sent to.
///
/// A token is attached only when the request's origin is allowed, so one account's token never reaches another
/// account's hosts, and the client drops it on redirects to other origins. Text a server sends back is scrubbed of
/// the account's secrets (`scrubbed(_:)`) in every error the session and its providers throw, since servers may echo
/// a token or signature in an error body.
public struct AccountSession: Sendable {
    public var account: String
    public var client: HTTPClient
    public var credentials: (any BearerTokenSource)?
    /// Origins (`https://host:port`) the token may be sent to.
    public var allowedOrigins: Set<String>
    /// The account's configured addresses; the values of their queries (presigned signatures) are secrets too.
    public var configuredURLs: [EndpointURL]
    /// The failures the account's run simulates (`--simulate-failure`, `testFailureMode`): `timeout` and `token` make
    /// every exchange fail here before anything is sent; providers and the report upload consult it for the rest.
    public var simulation = FailureSimulation()

    public init(
        account: String, client: HTTPClient = HTTPClient(), credentials: (any BearerTokenSource)? = nil,
        allowedOrigins: Set<String> = [], configuredURLs: [EndpointURL] = []
    ) {
        self.account = account
        self.client = client
        self.credentials = credentials
        self.allowedOrigins = allowedOrigins
        self.configuredURLs = configuredURLs
    }

    /// Every secret of the account: what its credentials hold and the query values of its configured addresses.
    public var secrets: [String] {
        (credentials?.secrets ?? []) + configuredURLs.flatMap(SecretScrubber.queryValues(of:))
    }

    /// `text` with every secret of the account replaced by `[redacted]`, raw or percent-encoded. Use it on any text
    /// that came from a server, or that may contain such text, before showing or storing it.
    public func scrubbed(_ text: String) -> String {
        SecretScrubber(secrets: secrets).scrub(text)
    }

    /// `error` with every secret of the account taken out of its texts.
    public func scrubbed(_ error: SyncError) -> SyncError {
        let scrubber = SecretScrubber(secrets: secrets)
        return error.scrubbed(scrubber.scrub)
    }

    /// Runs `body`; an error it throws is scrubbed of the account's secrets. Providers wrap their pulls and pushes
    /// in it, so no text a server sent reaches a message unscrubbed.
    public func guarded<Result>(_ body: () throws(SyncError) -> Result) throws(SyncError) -> Result {
        do {
            return try body()
        } catch {
            throw scrubbed(error)
        }
    }

    /// Sends the request with the account's token when its origin is allowed. After a `401` for an invalid or
    /// expired token, asks the credentials for a fresh token once and tries again.
    public func send(_ request: HTTPRequest, phase: SyncPhase) throws(SyncError) -> HTTPResponse {
        try guarded { () throws(SyncError) -> HTTPResponse in try authorizedSend(request, phase: phase) }
    }

    private func authorizedSend(_ request: HTTPRequest, phase: SyncPhase) throws(SyncError) -> HTTPResponse {
        try simulateFailure(of: request, phase: phase)
        var request = request
        let authorized = credentials != nil && allowedOrigins.contains(request.url.origin)
        if authorized, let credentials { request.bearerToken = try credentials.token() }
        var response = try exchange(request, phase: phase)
        if authorized, let credentials, response.status == 401, Self.isExpiredToken(response),
            try credentials.refresh()
        {
            request.bearerToken = try credentials.token()
            response = try exchange(request, phase: phase)
        }
        return response
    }

    /// Throws the failure a simulated `timeout` or `token` makes of an exchange, before anything is sent and before
    /// a token is fetched: a stalled server's timeout, or the server's rejection of the token (its demand for one,
    /// when the account has none for that server).
    private func simulateFailure(of request: HTTPRequest, phase: SyncPhase) throws(SyncError) {
        let url = request.url.redacted
        if let label = simulation.label(.timeout) {
            // A stalled transfer times out after the low-speed window, as libcurl reports it.
            let seconds = min(client.limits.totalTimeoutSeconds, client.limits.lowSpeedSeconds)
            throw .simulated(
                .unreachable(account: account, error: .timedOut(url: url, seconds: seconds), phase: phase), label: label
            )
        }
        if let label = simulation.label(.token) {
            guard let credentials, allowedOrigins.contains(request.url.origin) else {
                throw .simulated(.credentialsMissing(account: account, url: url, status: 401), label: label)
            }
            throw .simulated(
                .credentialsRejected(account: account, url: url, status: 401, detail: "", renewal: credentials.renewal),
                label: label)
        }
    }

    /// Throws the `SyncError` that matches a status outside `expecting`, with the server's detail scrubbed of the
    /// account's secrets.
    public func check(_ response: HTTPResponse, expecting: Set<Int> = [200], phase: SyncPhase) throws(SyncError) {
        guard !expecting.contains(response.status) else { return }
        try guarded { () throws(SyncError) in try judge(response, phase: phase) }
    }

    private func judge(_ response: HTTPResponse, phase: SyncPhase) throws(SyncError) {
        let url = response.url.redacted
        let detail = ServiceErrorMessage.summary(of: response)
        let renewal = credentials?.renewal ?? ""
        if credentials == nil || !allowedOrigins.contains(response.url.origin), [401, 403].contains(response.status) {
            throw .credentialsMissing(account: account, url: url, status: response.status)
        }
        switch response.status {
        case 401: throw .credentialsRejected(account: account, url: url, status: 401, detail: detail, renewal: renewal)
        case 403: throw .accessDenied(account: account, url: url, detail: detail, renewal: renewal)
        case 404: throw .notFound(account: account, url: url, detail: detail, phase: phase)
        case 412: throw .changedSincePull(account: account, url: url)
        case 429, 500...599:
            throw .unavailable(account: account, url: url, status: response.status, detail: detail, phase: phase)
        default:
            throw .refused(account: account, url: url, status: response.status, detail: detail, phase: phase)
        }
    }

    private func exchange(_ request: HTTPRequest, phase: SyncPhase) throws(SyncError) -> HTTPResponse {
        do {
            return try client.send(request)
        } catch {
            throw .unreachable(account: account, error: error, phase: phase)
        }
    }

    /// Whether a 401 says the token itself is bad or expired (so a refresh may help), per RFC 6750 and Google.
    static func isExpiredToken(_ response: HTTPResponse) -> Bool {
        if let challenge = response.header("www-authenticate")?.lowercased(), challenge.contains("invalid_token") {
            return true
        }
        let body = ServiceErrorMessage.summary(of: response)
        return body.hasPrefix("UNAUTHENTICATED") || body.hasPrefix("InvalidAuthenticationToken")
            || response.header("www-authenticate") == nil
    }
}
