import Foundation
import StocktakeSync
import Testing

/// The libcurl client against a misbehaving server (the Google emulator): retries, Retry-After, stalls, oversized
/// bodies, and redirects that must not carry the token to another origin.
@Suite struct HTTPClientFaultTests {
    private static let token = "ya29.seeded-token"
    private static let path = "/drive/v3/files/central?alt=media"

    /// An emulator holding one CSV file and one valid token.
    private func emulator() throws -> GoogleEmulator {
        let emulator = try GoogleEmulator.start()
        var setup = GoogleEmulator.Setup()
        setup.accessTokens = [Self.token: 3600]
        setup.files = ["central": .init(name: "central.csv", content: "vt_tag,status\r\nVT-1,ok\r\n")]
        try emulator.setUp(setup)
        return emulator
    }

    private func client(
        _ sleeps: SleepRecorder, attempts: Int = 4, configure: (inout TransferLimits) -> Void = { _ in }
    ) -> HTTPClient {
        GoogleEmulator.client(sleeps: sleeps, attempts: attempts, configure: configure)
    }

    private func request(_ emulator: GoogleEmulator) throws -> HTTPRequest {
        HTTPRequest("GET", try emulator.baseURL.appending(path: Self.path), bearerToken: Self.token)
    }

    @Test func tooManyRequestsWaitsWhatRetryAfterSays() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/drive/", times: 2, status: 429, retryAfter: "7"))
        let sleeps = SleepRecorder()
        let response = try client(sleeps).send(request(emulator))
        #expect(response.status == 200)
        #expect(response.text == "vt_tag,status\r\nVT-1,ok\r\n")
        #expect(sleeps.waits == [7, 7])
        #expect(try emulator.requestLines() == Array(repeating: "GET \(Self.path)", count: 3))
    }

    @Test func serverErrorsAreRetriedThenTheLastAnswerIsReturned() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/drive/", times: -1, status: 500))
        let sleeps = SleepRecorder()
        let response = try client(sleeps, attempts: 3).send(request(emulator))
        #expect(response.status == 500)
        #expect(response.text.contains("\"status\": \"INTERNAL\""))
        #expect(sleeps.waits.count == 2)
        #expect(sleeps.waits.allSatisfy { $0 >= 0 && $0 <= 1 })
        #expect(try emulator.requestLines().count == 3)
    }

    @Test func forbiddenIsNotRetried() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/drive/", times: -1, status: 403))
        let sleeps = SleepRecorder()
        let response = try client(sleeps).send(request(emulator))
        #expect(response.status == 403)
        #expect(sleeps.waits.isEmpty)
        #expect(try emulator.requestLines().count == 1)
    }

    @Test func aStalledBodyTimesOut() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/drive/", stallSeconds: 4))
        let client = client(SleepRecorder(), attempts: 1) { limits in
            limits.lowSpeedBytesPerSecond = 1000
            limits.lowSpeedSeconds = 1
        }
        let url = try emulator.baseURL.appending(path: "/drive/v3/files/central")
        #expect(throws: HTTPError.timedOut(url: url.description, seconds: 1)) {
            try client.send(request(emulator))
        }
    }

    @Test(arguments: [false, true])
    func anOversizedBodyIsRefused(omitLength: Bool) throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/drive/", oversizeBytes: 200_000, omitLength: omitLength))
        let client = client(SleepRecorder()) { $0.maximumDownloadBytes = 1000 }
        let url = try emulator.baseURL.appending(path: "/drive/v3/files/central")
        #expect(throws: HTTPError.tooLarge(url: url.description, limit: 1000)) {
            try client.send(request(emulator))
        }
        #expect(try emulator.requestLines().count == 1)
    }

    @Test func aRedirectToAnotherPortDoesNotCarryTheToken() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.setRecorderAnswer(contentType: "text/csv", body: "from,elsewhere\r\n")
        try emulator.inject(.init(pathPrefix: "/drive/", redirectTo: emulator.recorderURL(path: "/moved.csv")))
        let response = try client(SleepRecorder()).send(request(emulator))
        #expect(response.status == 200)
        #expect(response.text == "from,elsewhere\r\n")
        let requests = try emulator.requests()
        #expect(requests.map(\.listener) == ["api", "recorder"])
        #expect(requests[0].headers["authorization"] == "Bearer \(Self.token)")
        #expect(requests[1].path == "/moved.csv")
        #expect(requests[1].headers["authorization"] == nil)
        #expect(!requests[1].headers.values.contains { $0.contains(Self.token) })
    }

    @Test func aBodyIsNotSentAcrossARedirectToAnotherOrigin() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/upload/", redirectTo: emulator.recorderURL(path: "/stolen.csv")))
        let request = HTTPRequest(
            "PUT", try emulator.baseURL.appending(path: "/upload/sheet.csv"), body: Array("tag\r\n1\r\n".utf8),
            bearerToken: Self.token)
        #expect(
            throws: HTTPError.redirectedElsewhere(
                url: "http://127.0.0.1:\(emulator.port)/upload/sheet.csv",
                to: emulator.recorderURL(path: "/stolen.csv"))
        ) { try client(SleepRecorder()).send(request) }
        #expect(try emulator.requests().map(\.listener) == ["api"], "nothing reaches the other origin")
    }

    @Test func aRedirectWithinTheOriginKeepsTheToken() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/old/", redirectTo: "http://127.0.0.1:\(emulator.port)\(Self.path)"))
        let request = HTTPRequest("GET", try emulator.baseURL.appending(path: "/old/central"), bearerToken: Self.token)
        let response = try client(SleepRecorder()).send(request)
        #expect(response.status == 200)
        let requests = try emulator.requests()
        #expect(requests.map(\.path) == ["/old/central", Self.path])
        #expect(requests.allSatisfy { $0.headers["authorization"] == "Bearer \(Self.token)" })
    }

    /// The push of the audit: a 301 or 302 to a PUT, POST or PATCH was followed by re-sending the body to the other
    /// origin (curl keeps the method and body for a custom request). Any redirect of data to another origin is
    /// refused now, whatever its status.
    @Test(arguments: [
        ("PUT", 301), ("PUT", 302), ("PUT", 303), ("POST", 301), ("POST", 302), ("POST", 303), ("PATCH", 301),
        ("PATCH", 302), ("PATCH", 308),
    ])
    func dataIsNeverSentAcrossARedirectToAnotherOrigin(method: String, status: Int) throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(
            .init(pathPrefix: "/upload/", status: status, redirectTo: emulator.recorderURL(path: "/stolen.csv?x=1")))
        let request = HTTPRequest(
            method, try emulator.baseURL.appending(path: "/upload/sheet.csv?uploadType=media"),
            body: Array("tag\r\n1\r\n".utf8), bearerToken: Self.token)
        #expect(
            throws: HTTPError.redirectedElsewhere(
                url: "http://127.0.0.1:\(emulator.port)/upload/sheet.csv",
                to: emulator.recorderURL(path: "/stolen.csv"))
        ) { try client(SleepRecorder()).send(request) }
        #expect(try emulator.requests().map(\.listener) == ["api"], "nothing reaches the other origin")
    }

    // MARK: Deadline

    /// A server that starts an answer and then stalls: the try's timeout is cut to the deadline, and the exchange
    /// ends there instead of after four low-speed aborts.
    @Test func aStalledServerIsGivenUpAtTheDeadline() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/drive/", times: -1, stallSeconds: 20))
        let sleeps = SleepRecorder()
        let client = client(sleeps) { $0.deadlineSeconds = 2 }
        let url = try emulator.baseURL.appending(path: "/drive/v3/files/central")
        let started = Date()
        #expect(throws: HTTPError.deadlineExceeded(url: url.description, seconds: 2, tries: 1)) {
            try client.send(request(emulator))
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 1.9 && elapsed < 4, "gave up after \(elapsed) seconds")
        #expect(try emulator.requestLines() == ["GET \(Self.path)"])
        #expect(sleeps.waits.isEmpty)
        #expect(
            HTTPError.deadlineExceeded(url: url.description, seconds: 2, tries: 1).description
                == "\(url) did not finish within the deadline of 2 seconds (1 try made). Try again later, or raise "
                + "the deadline.")
    }

    /// Tries that each stall for a second are retried until the deadline, and the error counts them.
    @Test func retriesStopAtTheDeadlineAndAreCounted() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/drive/", times: -1, stallSeconds: 20))
        let sleeps = SleepRecorder()
        let client = client(sleeps, attempts: 20) { limits in
            limits.lowSpeedBytesPerSecond = 1000
            limits.lowSpeedSeconds = 1
            limits.deadlineSeconds = 3
        }
        let url = try emulator.baseURL.appending(path: "/drive/v3/files/central")
        let request = try request(emulator)
        let started = Date()
        var thrown: HTTPError?
        do throws(HTTPError) {
            _ = try client.send(request)
        } catch {
            thrown = error
        }
        let elapsed = Date().timeIntervalSince(started)
        let tries = try emulator.requestLines().count
        #expect(tries >= 2)
        #expect(thrown == .deadlineExceeded(url: url.description, seconds: 3, tries: tries))
        #expect(
            thrown?.description
                == "\(url) did not finish within the deadline of 3 seconds (\(tries) tries made). Try again later, "
                + "or raise the deadline.")
        // The recorded waits take no time, so the client may stop early when the next wait would end past the
        // deadline; it never goes on after it.
        #expect(elapsed < 5, "gave up after \(elapsed) seconds")
        #expect(thrown?.isTransient == false)
    }

    /// A `Retry-After` that ends past the deadline is not waited for: the answer is returned as after the last try.
    @Test func aWaitPastTheDeadlineIsNotWaited() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/drive/", times: -1, status: 503, retryAfter: "30"))
        let sleeps = SleepRecorder()
        let response = try client(sleeps) { $0.deadlineSeconds = 20 }.send(request(emulator))
        #expect(response.status == 503)
        #expect(sleeps.waits.isEmpty)
        #expect(try emulator.requestLines().count == 1)
    }
}
