/// One HTTP request as the job sends it.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: EndpointURL
    /// Extra headers; `Authorization` is never set here but through `bearerToken`.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?
    /// A bearer token, sent only to `url`'s origin and never across a redirect to another origin.
    public var bearerToken: String?

    /// Whether the request sends data (a body, or a method meant to carry one: PUT, POST, PATCH), which must never
    /// be re-sent to another origin by a redirect.
    public var carriesData: Bool {
        body != nil || ["PUT", "POST", "PATCH"].contains(method.uppercased())
    }

    public init(
        _ method: String, _ url: EndpointURL, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil,
        bearerToken: String? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.bearerToken = bearerToken
    }
}
