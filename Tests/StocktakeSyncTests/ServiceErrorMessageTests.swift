import StocktakeSync
import Testing

@Suite struct ServiceErrorMessageTests {
    static func summary(_ body: String, type: String = "application/json") -> String {
        ServiceErrorMessage.summary(ofBody: Array(body.utf8), contentType: type)
    }

    @Test func googleErrorBody() {
        let body = """
            {"error": {"code": 403, "message": "The caller does not have permission", "status": "PERMISSION_DENIED"}}
            """
        #expect(Self.summary(body) == "PERMISSION_DENIED: The caller does not have permission")
    }

    @Test func microsoftErrorBody() {
        let body = #"{"error":{"code":"InvalidAuthenticationToken","message":"Access token has expired."}}"#
        #expect(Self.summary(body) == "InvalidAuthenticationToken: Access token has expired.")
    }

    @Test func oauthErrorBody() {
        let body = #"{"error":"invalid_grant","error_description":"Token has been expired or revoked."}"#
        #expect(Self.summary(body) == "invalid_grant: Token has been expired or revoked.")
    }

    @Test func htmlIsDropped() {
        #expect(Self.summary("<html><body>502 Bad Gateway</body></html>", type: "text/html") == "")
    }

    @Test func plainTextBecomesOneClippedLine() {
        #expect(Self.summary("quota\nexceeded", type: "text/plain") == "quota exceeded")
        #expect(Self.summary(String(repeating: "x", count: 300), type: "text/plain").count == 200)
    }
}
