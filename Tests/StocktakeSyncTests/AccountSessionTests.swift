import Testing

@testable import StocktakeSync

@Suite struct AccountSessionTests {
    static func response(_ status: Int, _ body: String = "", headers: [(name: String, value: String)] = []) throws
        -> HTTPResponse
    {
        HTTPResponse(
            status: status, headers: headers, body: Array(body.utf8),
            url: try EndpointURL("https://x.example.org/s?sig=1"))
    }

    @Test(arguments: [
        (401, "credentialsRejected"), (403, "accessDenied"), (404, "notFound"), (412, "changedSincePull"),
        (429, "unavailable"), (500, "unavailable"), (503, "unavailable"), (400, "refused"), (409, "refused"),
    ])
    func statusesMapToErrors(status: Int, kind: String) throws {
        let session = AccountSession(
            account: "acme", credentials: StaticTokenSource(.environment("STOCKTAKE_TEST_TOKEN"), account: "acme"),
            allowedOrigins: ["https://x.example.org:443"])
        let response = try Self.response(status)
        do throws(SyncError) {
            try session.check(response, phase: .pull)
            Issue.record("status \(status) passed the check")
        } catch {
            #expect(String(describing: Mirror(reflecting: error).children.first?.label ?? "") == kind)
            #expect(!error.description.contains("sig=1"), "the query string must not reach messages")
        }
    }

    @Test(arguments: [401, 403])
    func withoutCredentialsTheUserIsToldToConfigureThem(status: Int) throws {
        #expect(throws: SyncError.credentialsMissing(account: "acme", url: "https://x.example.org/s", status: status)) {
            try AccountSession(account: "acme").check(try Self.response(status), phase: .pull)
        }
    }

    @Test func expectedStatusesPass() throws {
        try AccountSession(account: "acme").check(try Self.response(204), expecting: [200, 201, 204], phase: .push)
    }

    @Test func whichUnauthorizedResponsesAreWorthARefresh() throws {
        #expect(
            AccountSession.isExpiredToken(
                try Self.response(401, headers: [("www-authenticate", "Bearer realm=\"x\", error=\"invalid_token\"")])))
        #expect(
            AccountSession.isExpiredToken(
                try Self.response(
                    401,
                    #"{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}"#,
                    headers: [("www-authenticate", "Bearer realm=\"https://accounts.google.com/\"")])))
        #expect(
            !AccountSession.isExpiredToken(
                try Self.response(
                    401, headers: [("www-authenticate", "Bearer realm=\"x\", error=\"insufficient_scope\"")])))
    }
}

/// What the session takes out of server text: the token, and the signatures of the account's configured URLs.
@Suite struct AccountSessionScrubbingTests {
    static let token = "ya29.echoed/token+value"

    func session() throws -> AccountSession {
        AccountSession(
            account: "acme", credentials: GoogleEmulator.FixedToken(value: Self.token),
            allowedOrigins: ["https://x.example.org:443"],
            configuredURLs: [try EndpointURL("https://x.example.org/s?X-Amz-Signature=0a1b2c3d4e5f6a7b&n=3600")])
    }

    @Test func theTokenAndTheSignaturesAreTheSecrets() throws {
        #expect(try session().secrets == [Self.token, "0a1b2c3d4e5f6a7b"])
    }

    @Test func scrubbedReplacesEverySecretRawOrEncoded() throws {
        let text = "got ya29.echoed%2Ftoken%2Bvalue and ya29.echoed/token+value for sig 0a1b2c3d4e5f6a7b, n=3600"
        #expect(
            try session().scrubbed(text) == "got [redacted] and [redacted] for sig [redacted], n=3600")
    }

    @Test(arguments: [400, 401, 403, 404, 409, 500])
    func aServerEchoingTheTokenInAnErrorBodyIsScrubbed(status: Int) throws {
        let session = try session()
        let response = try AccountSessionTests.response(
            status, #"{"error":{"code":\#(status),"message":"bad token \#(Self.token)","status":"X"}}"#)
        do throws(SyncError) {
            try session.check(response, phase: .push)
            Issue.record("status \(status) passed the check")
        } catch {
            #expect(error.description.contains("X: bad token [redacted]"), "\(error)")
            #expect(!error.description.contains("echoed"))
        }
    }

    @Test func everyTextOfAnErrorIsScrubbed() throws {
        let session = try session()
        let error = SyncError.unreachable(
            account: "acme",
            error: .redirectedElsewhere(url: "https://x.example.org/s", to: "https://y.example.org/\(Self.token)"),
            phase: .push)
        #expect(
            session.scrubbed(error)
                == .unreachable(
                    account: "acme",
                    error: .redirectedElsewhere(url: "https://x.example.org/s", to: "https://y.example.org/[redacted]"),
                    phase: .push))
    }
}
