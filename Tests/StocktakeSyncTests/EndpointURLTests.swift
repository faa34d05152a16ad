import StocktakeSync
import Testing

@Suite struct EndpointURLTests {
    /// The built-in API bases are made without parsing; they are what parsing their text gives.
    @Test func theBuiltInAPIBasesAreWhatParsingThemGives() throws {
        #expect(GoogleSheetsProvider.defaultBaseURL == (try EndpointURL("https://sheets.googleapis.com")))
        #expect(GoogleDriveProvider.defaultBaseURL == (try EndpointURL("https://www.googleapis.com")))
        #expect(GoogleSheetsProvider.defaultBaseURL.description == "https://sheets.googleapis.com/")
        #expect(
            try GoogleDriveProvider.defaultBaseURL.appending(path: "drive/v3/files").description
                == "https://www.googleapis.com/drive/v3/files")
    }

    @Test func aURLWithoutSchemeMeansHTTPS() throws {
        let url = try EndpointURL("files.example.org/reports/central.csv")
        #expect(url.scheme == "https")
        #expect(url.port == 443)
        #expect(url.description == "https://files.example.org/reports/central.csv")
        #expect(url.origin == "https://files.example.org:443")
    }

    @Test(arguments: ["http://127.0.0.1:8080/a.csv", "http://127.9.9.9/a", "http://localhost:1/a", "http://[::1]:99/a"])
    func plainHTTPIsAllowedToLoopback(text: String) throws {
        #expect(try EndpointURL(text).isLoopback)
    }

    @Test(arguments: [
        "http://example.org/a.csv", "http://10.0.0.1/a", "http://128.0.0.1/a", "http://127.0.0.1.example.org/a",
    ])
    func plainHTTPIsRefusedElsewhere(text: String) {
        #expect(throws: HTTPError.insecureURL(text)) { try EndpointURL(text) }
    }

    @Test func insecureMessageSaysWhatToDo() {
        #expect(
            HTTPError.insecureURL("http://example.org/a.csv").description
                == "http://example.org/a.csv uses plain http, which would send credentials unencrypted. "
                + "Use https:// (plain http is only allowed to this machine).")
    }

    @Test(arguments: ["ftp://example.org/a", "file:///etc/passwd", "https://", "::"])
    func otherSchemesAreInvalid(text: String) {
        #expect(throws: HTTPError.self) { try EndpointURL(text) }
    }

    @Test func redactedDropsTheQuery() throws {
        let url = try EndpointURL("https://bucket.example.org/central.csv?X-Amz-Signature=secret&X-Amz-Credential=k")
        #expect(url.redacted == "https://bucket.example.org/central.csv")
        #expect(url.description.contains("secret"))
    }

    @Test func redirectsResolveRelativeToTheRequest() throws {
        let url = try EndpointURL("https://a.example.org:8443/dav/central.csv")
        #expect(try url.resolving("/other/x.csv").description == "https://a.example.org:8443/other/x.csv")
        #expect(try url.resolving("https://b.example.org/y").origin == "https://b.example.org:443")
        #expect(throws: HTTPError.self) { try url.resolving("http://evil.example.org/") }
    }

    @Test func appendingAPathKeepsTheBase() throws {
        let base = try EndpointURL("http://127.0.0.1:9000/google/")
        #expect(
            try base.appending(path: "/v4/spreadsheets/x").description
                == "http://127.0.0.1:9000/google/v4/spreadsheets/x")
    }
}
