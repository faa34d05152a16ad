/// A complete HTTP response.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names in lower case, in the order received.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The URL that answered, after redirects.
    public var url: EndpointURL

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8], url: EndpointURL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name == wanted }?.value
    }

    /// The body decoded as UTF-8.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
