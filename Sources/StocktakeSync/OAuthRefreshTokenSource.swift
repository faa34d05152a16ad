import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Access tokens from an OAuth 2.0 refresh token (RFC 6749 §6), as Google and Microsoft issue them.
///
/// The access token is kept with its expiry in memory and, when a cache file is given, in that file (JSON, written
/// atomically, readable by its owner only), so consecutive runs do not ask for a new token each time. A token is
/// renewed a minute before it expires, or when a server rejects it (`refresh()`). When the server rotates the
/// refresh token, the new one is saved in the cache file and used from then on; a refresh token configured anew
/// (after the old one was revoked) takes precedence over one remembered in the cache.
///
/// An `invalid_grant` answer means the refresh token was revoked or expired: the error says where to renew it.
public final class OAuthRefreshTokenSource: BearerTokenSource, @unchecked Sendable {
    /// The account the credential belongs to, for messages.
    public let account: String
    /// The token endpoint, such as `https://oauth2.googleapis.com/token`.
    public let tokenURL: EndpointURL
    public let clientID: String
    private let clientSecret: String
    /// The refresh token as configured.
    private let configuredRefreshToken: String
    /// Where the access token (and a rotated refresh token) is remembered between runs, if anywhere.
    public let cacheFile: String?
    public let renewal: String
    private let client: HTTPClient
    private let now: @Sendable () -> Date

    private let lock = NSLock()
    /// What is known now; guarded by `lock`.
    private var cache: Cache?
    private var cacheLoaded = false

    /// What the cache file holds.
    private struct Cache: Codable {
        var accessToken: String
        /// Seconds since 1970 when the access token expires.
        var expiresAt: Double
        /// A refresh token the server rotated to, if it did.
        var refreshToken: String?
        /// A fingerprint of the configured refresh token this cache was made from, so that a newly configured
        /// refresh token wins over a rotated one remembered from before.
        var configuredFingerprint: String
    }

    /// - Parameters:
    ///   - renewal: where the user renews the refresh token, as a sentence ("Renew it in Jobs/acme/secrets/oauth.").
    ///   - client: the HTTP client for the token endpoint (its limits and retries apply; redirects are refused).
    ///   - now: the clock, replaceable in tests.
    public init(
        account: String, tokenURL: EndpointURL, clientID: String, clientSecret: String, refreshToken: String,
        cacheFile: String? = nil, renewal: String, client: HTTPClient = HTTPClient(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.account = account
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.configuredRefreshToken = refreshToken
        self.cacheFile = cacheFile
        self.renewal = renewal
        // The request body holds the client secret and the refresh token: a redirect, which would resend it to
        // wherever it points, is not followed.
        var client = client
        client.limits.maximumRedirects = 0
        self.client = client
        self.now = now
    }

    /// The cached access token while it has more than a minute left (or half its lifetime, when shorter); else a
    /// new one from the token endpoint.
    public func token() throws(SyncError) -> String {
        try withLock { () throws(SyncError) -> String in
            try loadCacheOnce()
            if let cache, now().timeIntervalSince1970 < cache.expiresAt { return cache.accessToken }
            return try fetch().accessToken
        }
    }

    /// Gets a new access token, whatever the cache holds; true when it differs from the one before.
    public func refresh() throws(SyncError) -> Bool {
        try withLock { () throws(SyncError) -> Bool in
            try loadCacheOnce()
            let previous = cache?.accessToken
            return try fetch().accessToken != previous
        }
    }

    /// The client secret, the refresh tokens (configured and rotated), the access token and the token URL's
    /// query values.
    public var secrets: [String] {
        lock.withLock { heldSecrets }
    }

    /// `secrets`, for callers that hold `lock`.
    private var heldSecrets: [String] {
        [clientSecret, configuredRefreshToken] + [cache?.accessToken, cache?.refreshToken].compactMap { $0 }
            + SecretScrubber.queryValues(of: tokenURL)
    }

    // MARK: Token endpoint

    /// Asks the token endpoint for a new access token and remembers it. Called with `lock` held.
    private func fetch() throws(SyncError) -> Cache {
        let refreshToken = cache?.refreshToken ?? configuredRefreshToken
        let form = [
            ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", clientID),
            ("client_secret", clientSecret),
        ].map { "\(Self.formEncoded($0.0))=\(Self.formEncoded($0.1))" }.joined(separator: "&")
        let request = HTTPRequest(
            "POST", tokenURL,
            headers: [
                (name: "Content-Type", value: "application/x-www-form-urlencoded"),
                (name: "Accept", value: "application/json"),
            ], body: Array(form.utf8))
        let response: HTTPResponse
        do {
            response = try client.send(request)
        } catch {
            let scrubber = SecretScrubber(secrets: heldSecrets)
            throw .unreachable(account: account, error: error.scrubbed(scrubber.scrub), phase: .pull)
        }
        let url = tokenURL.redacted
        guard response.status == 200 else { throw rejection(response) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let accessToken = object["access_token"] as? String, !accessToken.isEmpty
        else {
            throw .badResponse(account: account, url: url, reason: "the token answer has no access_token")
        }
        if let type = object["token_type"] as? String, type.lowercased() != "bearer" {
            let scrubber = SecretScrubber(secrets: heldSecrets + [accessToken])
            throw .badResponse(
                account: account, url: url, reason: "the token type is \(scrubber.scrub(type)), not Bearer")
        }
        let lifetime =
            (object["expires_in"] as? NSNumber)?.doubleValue
            ?? (object["expires_in"] as? String).flatMap(Double.init) ?? 3600
        let margin = min(60, lifetime / 2)
        let rotated = (object["refresh_token"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        let fresh = Cache(
            accessToken: accessToken, expiresAt: now().timeIntervalSince1970 + lifetime - margin,
            refreshToken: rotated ?? cache?.refreshToken,
            configuredFingerprint: Self.fingerprint(configuredRefreshToken))
        cache = fresh
        try save(fresh)
        return fresh
    }

    /// The error for a token endpoint's refusal (RFC 6749 §5.2).
    private func rejection(_ response: HTTPResponse) -> SyncError {
        let url = tokenURL.redacted
        let detail = SecretScrubber(secrets: heldSecrets).scrub(ServiceErrorMessage.summary(of: response))
        let code = (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["error"] as? String
        switch (response.status, code) {
        case (_, "invalid_grant"), (_, "invalid_client"), (_, "unauthorized_client"), (401, _):
            return .credentialsRejected(
                account: account, url: url, status: response.status, detail: detail, renewal: renewal)
        case (403, _):
            return .accessDenied(account: account, url: url, detail: detail, renewal: renewal)
        case (429, _), (500...599, _):
            return .unavailable(account: account, url: url, status: response.status, detail: detail, phase: .pull)
        default:
            return .refused(account: account, url: url, status: response.status, detail: detail, phase: .pull)
        }
    }

    /// `text` encoded for an `application/x-www-form-urlencoded` body.
    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "-._*")
        allowed.formUnion(CharacterSet(charactersIn: "a"..."z"))
        allowed.formUnion(CharacterSet(charactersIn: "A"..."Z"))
        allowed.formUnion(CharacterSet(charactersIn: "0"..."9"))
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text)
    }

    // MARK: Cache file

    /// Reads the cache file the first time a token is needed. Called with `lock` held.
    private func loadCacheOnce() throws(SyncError) {
        guard !cacheLoaded else { return }
        cacheLoaded = true
        guard let cacheFile, FileManager.default.fileExists(atPath: cacheFile) else { return }
        let text = try SecretsFile.read(cacheFile, account: account)
        guard let stored = try? JSONDecoder().decode(Cache.self, from: Data(text.utf8)) else { return }
        if stored.configuredFingerprint == Self.fingerprint(configuredRefreshToken) {
            cache = stored
        }
    }

    /// Writes the cache file atomically (a new file, mode 0600, renamed over the old one). Called with `lock` held.
    private func save(_ cache: Cache) throws(SyncError) {
        guard let cacheFile else { return }
        guard let data = try? JSONEncoder().encode(cache) else { return }
        let temporary = cacheFile + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw cacheFailure(cacheFile, errno) }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let failure = written == data.count ? (fchmod(descriptor, 0o600) == 0 ? 0 : errno) : errno
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard failure == 0, synced, rename(temporary, cacheFile) == 0 else {
            let error = failure != 0 ? failure : errno
            unlink(temporary)
            throw cacheFailure(cacheFile, error)
        }
    }

    private func cacheFailure(_ path: String, _ error: Int32) -> SyncError {
        .secrets(
            account: account, path: path,
            reason: "cannot be written (\(String(cString: strerror(error)))); make its folder writable by this user")
    }

    /// A short fingerprint of a secret, so the cache can tell which refresh token it came from without holding it.
    static func fingerprint(_ secret: String) -> String {
        GoogleSheetsProvider.fingerprint(Array(secret.utf8))
    }

    private func withLock<Result>(_ body: () throws(SyncError) -> Result) throws(SyncError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
