import Foundation

/// An HTTP(S) address the job may talk to, checked when it is made.
///
/// A URL given without a scheme means `https://`. Plain `http://` is refused except to loopback addresses
/// (127.0.0.0/8, `::1`, `localhost`), so tokens never cross a network in clear text.
public struct EndpointURL: Sendable, Hashable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int
    /// Path and query, starting with `/`.
    public let pathAndQuery: String

    /// Parses and checks `text`.
    public init(_ text: String) throws(HTTPError) {
        var raw = Whitespace.trimmed(text)
        if !raw.contains("://") { raw = "https://" + raw }
        guard let components = URLComponents(string: raw), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { throw .invalidURL(Self.redact(text)) }
        guard scheme == "https" || scheme == "http" else { throw .invalidURL(Self.redact(text)) }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = components.port ?? (scheme == "https" ? 443 : 80)
        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        self.pathAndQuery = path
        if scheme == "http" && !isLoopback { throw .insecureURL(redacted) }
    }

    /// The HTTPS address of `host`'s root, as parsing `https://HOST` gives it, without parsing: the built-in API
    /// bases are part of every account's settings, and Foundation's URL parsing costs each new process about half a
    /// millisecond the first time, also for accounts whose sheets are local files. `host` is lower-case.
    init(httpsRootOf host: String) {
        scheme = "https"
        self.host = host
        port = 443
        pathAndQuery = "/"
    }

    /// Whether the host is this machine.
    public var isLoopback: Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if bare == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".")
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// `scheme://host:port`: a token is only ever sent to the origin it was configured for.
    public var origin: String { "\(scheme)://\(host):\(port)" }

    /// The full URL.
    public var description: String {
        let defaultPort = (scheme == "https" && port == 443) || (scheme == "http" && port == 80)
        let hostPart = host.contains(":") ? "[\(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))]" : host
        return "\(scheme)://\(hostPart)\(defaultPort ? "" : ":\(port)")\(pathAndQuery)"
    }

    /// The URL without its query string, safe for logs, errors and reports (presigned URLs carry secrets there).
    public var redacted: String {
        Self.redact(description)
    }

    /// A URL made from this one's origin and another path, for APIs with a configurable base.
    public func appending(path: String) throws(HTTPError) -> EndpointURL {
        var base = description
        if let query = base.firstIndex(of: "?") { base = String(base[..<query]) }
        while base.hasSuffix("/") { base.removeLast() }
        return try EndpointURL(base + (path.hasPrefix("/") ? path : "/" + path))
    }

    /// Where a redirect's `Location` points, relative to this URL.
    public func resolving(_ location: String) throws(HTTPError) -> EndpointURL {
        guard let base = URL(string: description), let target = URL(string: location, relativeTo: base) else {
            throw .invalidURL(Self.redact(location))
        }
        return try EndpointURL(target.absoluteString)
    }

    static func redact(_ text: String) -> String {
        guard let query = text.firstIndex(of: "?") else { return text }
        return String(text[..<query])
    }
}
