import Foundation
import StocktakeSync
import Testing

/// OAuthRefreshTokenSource against the emulator's token endpoint: the request, caching in memory and on disk,
/// rotated refresh tokens, and the errors that tell the user to renew the credential.
@Suite struct OAuthRefreshTokenSourceTests {
    private static let renewal = "Renew it in Jobs/acme/secrets/oauth."

    /// A clock the test moves by hand.
    private final class TestClock: @unchecked Sendable {
        private let lock = NSLock()
        private var current = Date(timeIntervalSince1970: 1_800_000_000)

        var now: @Sendable () -> Date { { [self] in lock.withLock { current } } }

        func advance(_ seconds: Double) {
            lock.withLock { current += seconds }
        }
    }

    private func emulator(setup: (inout GoogleEmulator.Setup) -> Void = { _ in }) throws -> GoogleEmulator {
        let emulator = try GoogleEmulator.start()
        var state = GoogleEmulator.Setup()
        state.refreshTokens = ["1//refresh"]
        setup(&state)
        try emulator.setUp(state)
        return emulator
    }

    private func source(
        _ emulator: GoogleEmulator, refreshToken: String = "1//refresh", clientSecret: String = "emulator-secret",
        cacheFile: String? = nil, clock: TestClock = TestClock(), client: HTTPClient = GoogleEmulator.client()
    ) -> OAuthRefreshTokenSource {
        OAuthRefreshTokenSource(
            account: "acme", tokenURL: emulator.tokenURL, clientID: "emulator-client", clientSecret: clientSecret,
            refreshToken: refreshToken, cacheFile: cacheFile, renewal: Self.renewal, client: client, now: clock.now)
    }

    private func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "stocktake-oauth-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func tokenRequests(_ emulator: GoogleEmulator) throws -> [GoogleEmulator.RecordedRequest] {
        try emulator.requests().filter { $0.path == "/token" }
    }

    private func expectError(_ expected: SyncError, message: String, _ body: () throws(SyncError) -> Void) {
        do throws(SyncError) {
            try body()
            Issue.record("expected \(expected)")
        } catch {
            #expect(error == expected)
            #expect(error.description == message)
        }
    }

    @Test func theRefreshGrantIsAFormEncodedPost() throws {
        let emulator = try emulator { $0.clientSecret = "s3cret/+= x" }
        defer { emulator.stop() }
        #expect(try source(emulator, clientSecret: "s3cret/+= x").token() == "ya29.emulated-access-1")
        let requests = try emulator.requests()
        #expect(requests.map { "\($0.method) \($0.path)" } == ["POST /token"])
        #expect(
            requests[0].body
                == "grant_type=refresh_token&refresh_token=1%2F%2Frefresh&client_id=emulator-client"
                + "&client_secret=s3cret%2F%2B%3D%20x")
        #expect(requests[0].headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(requests[0].headers["authorization"] == nil)
    }

    @Test func theTokenIsReusedUntilAMinuteBeforeItExpires() throws {
        let emulator = try emulator { $0.accessTokenLifetime = 3599 }
        defer { emulator.stop() }
        let clock = TestClock()
        let source = source(emulator, clock: clock)
        #expect(try source.token() == "ya29.emulated-access-1")
        clock.advance(3599 - 61)
        #expect(try source.token() == "ya29.emulated-access-1")
        clock.advance(2)
        #expect(try source.token() == "ya29.emulated-access-2")
        #expect(try tokenRequests(emulator).count == 2)
    }

    @Test func refreshGetsANewTokenWhateverTheCacheHolds() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let source = source(emulator)
        #expect(try source.token() == "ya29.emulated-access-1")
        #expect(try source.refresh())
        #expect(try source.token() == "ya29.emulated-access-2")
        #expect(try tokenRequests(emulator).count == 2)
    }

    @Test func theCacheFileIsOwnerOnlyAndSparesTheNextRunARequest() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = directory + "/google-token.json"
        let clock = TestClock()
        #expect(try source(emulator, cacheFile: cache, clock: clock).token() == "ya29.emulated-access-1")
        let attributes = try FileManager.default.attributesOfItem(atPath: cache)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["google-token.json"])
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cache)))
        #expect((stored as? [String: Any])?["accessToken"] as? String == "ya29.emulated-access-1")
        #expect(try source(emulator, cacheFile: cache, clock: clock).token() == "ya29.emulated-access-1")
        #expect(try tokenRequests(emulator).count == 1)
    }

    @Test func aRotatedRefreshTokenIsSavedAndUsedFromThenOn() throws {
        let emulator = try emulator { $0.rotatesRefreshTokens = true }
        defer { emulator.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = directory + "/google-token.json"
        let clock = TestClock()
        let first = source(emulator, cacheFile: cache, clock: clock)
        #expect(try first.token() == "ya29.emulated-access-1")
        #expect(try first.refresh())
        #expect(try emulator.refreshTokens() == ["1//emulated-refresh-2"])
        clock.advance(7200)
        let nextRun = source(emulator, cacheFile: cache, clock: clock)
        #expect(try nextRun.token() == "ya29.emulated-access-3")
        let bodies = try tokenRequests(emulator).map(\.body)
        #expect(
            bodies.map { $0.split(separator: "&")[1] } == [
                "refresh_token=1%2F%2Frefresh", "refresh_token=1%2F%2Femulated-refresh-1",
                "refresh_token=1%2F%2Femulated-refresh-2",
            ])
    }

    @Test func aNewlyConfiguredRefreshTokenWinsOverARotatedOneInTheCache() throws {
        let emulator = try emulator { $0.rotatesRefreshTokens = true }
        defer { emulator.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = directory + "/google-token.json"
        _ = try source(emulator, cacheFile: cache).token()
        var renewed = GoogleEmulator.Setup()
        renewed.refreshTokens = ["1//renewed"]
        try emulator.setUp(renewed)
        try emulator.forgetRequests()
        #expect(try source(emulator, refreshToken: "1//renewed", cacheFile: cache).token() == "ya29.emulated-access-2")
        #expect(
            try tokenRequests(emulator).map { $0.body.split(separator: "&")[1] } == ["refresh_token=1%2F%2Frenewed"])
    }

    @Test func aRevokedRefreshTokenSaysWhereToRenewIt() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = "http://127.0.0.1:\(emulator.port)/token"
        let source = source(emulator, refreshToken: "1//revoked", cacheFile: directory + "/google-token.json")
        expectError(
            .credentialsRejected(
                account: "acme", url: url, status: 400, detail: "invalid_grant: Token has been expired or revoked.",
                renewal: Self.renewal),
            message: "The token for account acme was rejected (400) by \(url): invalid_grant: Token has been expired "
                + "or revoked. Renew it in Jobs/acme/secrets/oauth."
        ) { () throws(SyncError) in
            _ = try source.token()
        }
        expectError(
            .credentialsRejected(
                account: "acme", url: url, status: 400, detail: "invalid_grant: Token has been expired or revoked.",
                renewal: Self.renewal),
            message: "The token for account acme was rejected (400) by \(url): invalid_grant: Token has been expired "
                + "or revoked. Renew it in Jobs/acme/secrets/oauth."
        ) { () throws(SyncError) in
            _ = try source.refresh()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        #expect(try tokenRequests(emulator).count == 2)
    }

    @Test func anUnknownClientIsRejected() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let url = "http://127.0.0.1:\(emulator.port)/token"
        expectError(
            .credentialsRejected(
                account: "acme", url: url, status: 401, detail: "invalid_client: The OAuth client was not found.",
                renewal: Self.renewal),
            message: "The token for account acme was rejected (401) by \(url): invalid_client: The OAuth client was "
                + "not found. Renew it in Jobs/acme/secrets/oauth."
        ) { () throws(SyncError) in
            _ = try source(emulator, clientSecret: "wrong").token()
        }
    }

    @Test func aTokenEndpointThatKeepsFailingIsUnavailable() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/token", times: -1, status: 503))
        let sleeps = SleepRecorder()
        let url = "http://127.0.0.1:\(emulator.port)/token"
        expectError(
            .unavailable(
                account: "acme", url: url, status: 503, detail: "UNAVAILABLE: The service is currently unavailable.",
                phase: .pull),
            message: "Account acme: \(url) is unavailable (503): UNAVAILABLE: The service is currently unavailable "
                + "and stayed so after retries. Try again later."
        ) { () throws(SyncError) in
            _ = try source(emulator, client: GoogleEmulator.client(sleeps: sleeps, attempts: 2)).token()
        }
        #expect(sleeps.waits.count == 1)
    }

    @Test func aRedirectedTokenRequestIsNotResentAnywhere() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/token", redirectTo: emulator.recorderURL(path: "/token")))
        let url = "http://127.0.0.1:\(emulator.port)/token"
        expectError(
            .unreachable(
                account: "acme", error: .redirectedElsewhere(url: url, to: emulator.recorderURL(path: "/token")),
                phase: .pull),
            message: "Account acme: \(url) redirected to another server (\(emulator.recorderURL(path: "/token"))); "
                + "stocktake does not send data there. Check the address."
        ) { () throws(SyncError) in
            _ = try source(emulator).token()
        }
        #expect(try emulator.requests().map(\.listener) == ["api"])
    }

    @Test(arguments: [301, 302])
    func aTokenRequestRedirectedWithAnyStatusIsNotResent(status: Int) throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/token", status: status, redirectTo: emulator.recorderURL(path: "/t")))
        let url = "http://127.0.0.1:\(emulator.port)/token"
        expectError(
            .unreachable(
                account: "acme", error: .redirectedElsewhere(url: url, to: emulator.recorderURL(path: "/t")),
                phase: .pull),
            message: "Account acme: \(url) redirected to another server (\(emulator.recorderURL(path: "/t"))); "
                + "stocktake does not send data there. Check the address."
        ) { () throws(SyncError) in
            _ = try source(emulator).token()
        }
        #expect(try emulator.requests().map(\.listener) == ["api"], "the client secret went nowhere else")
    }

    @Test func secretsTheTokenEndpointEchoesAreScrubbed() throws {
        let emulator = try emulator { $0.clientSecret = "s3cret/+= x" }
        defer { emulator.stop() }
        try emulator.inject(
            .init(
                pathPrefix: "/token", status: 400,
                message: "Bad request client_secret=s3cret%2F%2B%3D+x refresh_token=1//refresh (s3cret/+= x)"))
        let url = "http://127.0.0.1:\(emulator.port)/token"
        let detail = "INVALID_ARGUMENT: Bad request client_secret=[redacted] refresh_token=[redacted] ([redacted])"
        expectError(
            .refused(account: "acme", url: url, status: 400, detail: detail, phase: .pull),
            message: "Account acme: \(url) refused the pull (400): \(detail). Check the account's configuration for "
                + "this URL."
        ) { () throws(SyncError) in
            _ = try source(emulator, clientSecret: "s3cret/+= x").token()
        }
    }

    @Test func theSecretsAreTheClientSecretAndTheTokens() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let source = source(emulator)
        #expect(source.secrets == ["emulator-secret", "1//refresh"])
        _ = try source.token()
        #expect(source.secrets == ["emulator-secret", "1//refresh", "ya29.emulated-access-1"])
    }

    @Test func aCacheFileReadableByOthersIsRefused() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = directory + "/google-token.json"
        #expect(
            FileManager.default.createFile(
                atPath: cache, contents: Data("{}".utf8), attributes: [.posixPermissions: 0o644]))
        expectError(
            .secrets(account: "acme", path: cache, reason: "can be read by others (mode 644); run chmod 600 \(cache)"),
            message: "Account acme: the secrets file \(cache) can be read by others (mode 644); run chmod 600 \(cache)."
        ) { () throws(SyncError) in
            _ = try source(emulator, cacheFile: cache).token()
        }
        #expect(try tokenRequests(emulator).isEmpty)
    }

    @Test func aCacheFileThatCannotBeWrittenIsReported() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let cache = NSTemporaryDirectory() + "stocktake-missing-\(UUID().uuidString)/google-token.json"
        expectError(
            .secrets(
                account: "acme", path: cache,
                reason: "cannot be written (No such file or directory); make its folder writable by this user"),
            message: "Account acme: the secrets file \(cache) cannot be written (No such file or directory); make its "
                + "folder writable by this user."
        ) { () throws(SyncError) in
            _ = try source(emulator, cacheFile: cache).token()
        }
    }
}
