import StocktakeSync
import Testing

/// The libcurl client against a real Apache httpd over TLS with a certificate authority made for the test.
@Suite(.serialized, .enabled(if: ApacheServer.isEnabled, "needs apache2 and openssl"), .apacheServer)
struct HTTPClientTLSTests {
    let sheet: [UInt8] = Array("asset,room\nVT-0001,A-101\n".utf8)

    private func client(caFile: String?) -> HTTPClient {
        var limits = TransferLimits()
        limits.caFile = caFile
        limits.connectTimeoutSeconds = 5
        limits.totalTimeoutSeconds = 20
        return HTTPClient(limits: limits, sleep: { _ in })
    }

    @Test func getOverTLSWithTheTestAuthority() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "tls.csv")
        let response = try client(caFile: server.caFile).send(
            HTTPRequest("GET", EndpointURL(server.url("tls.csv")), bearerToken: server.token))
        #expect(response.status == 200)
        #expect(response.body == sheet)
        let etag = try #require(response.header("ETag"))
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
    }

    @Test func theCertificateAlsoNamesLocalhost() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "tls.csv")
        let response = try client(caFile: server.caFile).send(
            HTTPRequest("GET", EndpointURL("https://localhost:\(server.port)/tls.csv"), bearerToken: server.token))
        #expect(response.status == 200)
        #expect(response.body == sheet)
    }

    @Test func withoutTheAuthorityTheServerIsNotTrusted() throws {
        let server = try #require(ApacheServer.current)
        let url = try EndpointURL(server.url("tls.csv"))
        #expect(
            throws: HTTPError.connectionFailed(
                url: url.redacted, reason: "SSL certificate problem: unable to get local issuer certificate")
        ) {
            try client(caFile: nil).send(HTTPRequest("GET", url, bearerToken: server.token))
        }
    }

    @Test func aMissingAuthorityFileIsAConnectionFailure() throws {
        let server = try #require(ApacheServer.current)
        let url = try EndpointURL(server.url("tls.csv"))
        #expect(
            throws: HTTPError.connectionFailed(
                url: url.description, reason: "error setting certificate file: /nonexistent/ca.pem")
        ) {
            try client(caFile: "/nonexistent/ca.pem").send(HTTPRequest("GET", url, bearerToken: server.token))
        }
    }

    @Test func anotherTokenIsForbidden() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "tls.csv")
        let url = try EndpointURL(server.url("tls.csv"))
        let client = client(caFile: server.caFile)
        #expect(try client.send(HTTPRequest("GET", url, bearerToken: "not-the-token")).status == 403)
        #expect(try client.send(HTTPRequest("GET", url)).status == 403)
    }

    @Test func aRedirectWithinTheOriginKeepsTheToken() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "tls.csv")
        let response = try client(caFile: server.caFile).send(
            HTTPRequest("GET", EndpointURL(server.url("same-origin/tls.csv")), bearerToken: server.token))
        #expect(response.status == 200)
        #expect(response.url.description == server.url("tls.csv"))
        #expect(response.body == sheet)
    }

    @Test func aRedirectToAnotherOriginDropsTheToken() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "tls.csv")
        let response = try client(caFile: server.caFile).send(
            HTTPRequest("GET", EndpointURL(server.url("other-origin/tls.csv")), bearerToken: server.token))
        // localhost is another origin than 127.0.0.1: the token stays behind and the server refuses.
        #expect(response.url.description == "https://localhost:\(server.port)/tls.csv")
        #expect(response.status == 403)
    }

    @Test func putWithTheCurrentETagReplacesTheFile() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "tls.csv")
        let url = try EndpointURL(server.url("tls.csv"))
        let client = client(caFile: server.caFile)
        let etag = try #require(try client.send(HTTPRequest("GET", url, bearerToken: server.token)).header("etag"))
        let replacement = Array("asset,room\nVT-0001,B-202\n".utf8)
        let put = try client.send(
            HTTPRequest("PUT", url, headers: [("If-Match", etag)], body: replacement, bearerToken: server.token))
        #expect(put.status == 204)
        #expect(server.read("tls.csv") == replacement)
        let stale = try client.send(
            HTTPRequest("PUT", url, headers: [("If-Match", etag)], body: sheet, bearerToken: server.token))
        #expect(stale.status == 412)
        #expect(server.read("tls.csv") == replacement)
    }
}
