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
