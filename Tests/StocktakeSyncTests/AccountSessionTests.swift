import StocktakeCore
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

/// `--simulate-failure token` and `timeout` in the session: the real error under its label, thrown before a token is
/// fetched or anything is sent.
extension AccountSessionTests {
    /// A token source that records every time a token is asked of it.
    final class CountingTokenSource: BearerTokenSource, @unchecked Sendable {
        var asked = 0
        func token() throws(SyncError) -> String {
            asked += 1
            return "st-counted"
        }
        func refresh() throws(SyncError) -> Bool { false }
        var renewal: String { "Renew it in Jobs/acme/secrets/token." }
        var secrets: [String] { ["st-counted"] }
    }

    static func rehearsing(_ kind: SimulatedFailure, credentials: CountingTokenSource?) -> AccountSession {
        var session = AccountSession(
            account: "acme", credentials: credentials, allowedOrigins: ["https://x.example.org:443"])
        session.simulation = FailureSimulation([kind], origin: .commandLine)
        return session
    }

    @Test func aSimulatedTokenFailureIsTheServersRejectionAndFetchesNoToken() throws {
        let credentials = CountingTokenSource()
        let request = HTTPRequest("GET", try EndpointURL("https://x.example.org/central.csv?sig=1"))
        #expect(
            throws: SyncError.simulated(
                .credentialsRejected(
                    account: "acme", url: "https://x.example.org/central.csv", status: 401, detail: "",
                    renewal: "Renew it in Jobs/acme/secrets/token."),
                label: "(simulated failure: --simulate-failure token)")
        ) {
            try Self.rehearsing(.token, credentials: credentials).send(request, phase: .pull)
        }
        #expect(credentials.asked == 0)
        #expect(
            throws: SyncError.simulated(
                .credentialsMissing(account: "acme", url: "https://x.example.org/central.csv", status: 401),
                label: "(simulated failure: --simulate-failure token)")
        ) {
            try Self.rehearsing(.token, credentials: nil).send(request, phase: .pull)
        }
    }

    @Test func aSimulatedTimeoutIsAStalledTransferOfThatPhase() throws {
        let credentials = CountingTokenSource()
        let request = HTTPRequest("PUT", try EndpointURL("https://x.example.org/central.csv"))
        let error = #expect(throws: SyncError.self) {
            try Self.rehearsing(.timeout, credentials: credentials).send(request, phase: .push)
        }
        #expect(
            error?.description
                == "(simulated failure: --simulate-failure timeout) Account acme: https://x.example.org/central.csv "
                + "did not answer within 30 seconds. Try again later, or raise the timeout. The outputs are kept.")
        #expect(error?.exitStatus == .temporaryFailure)
        #expect(credentials.asked == 0)
    }
}
