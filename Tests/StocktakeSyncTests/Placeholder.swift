import StocktakeSync
import Testing

@Test func smoke() throws {
    let client = HTTPClient()
    let response = try client.send(HTTPRequest("GET", try EndpointURL("http://127.0.0.1:18081/a.csv")))
    #expect(response.status == 200)
    #expect(response.text == "hello,world\n")
    #expect(throws: HTTPError.insecureURL("http://example.org/a.csv")) { try EndpointURL("http://example.org/a.csv") }
}
