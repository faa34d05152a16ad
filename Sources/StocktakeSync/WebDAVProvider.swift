import Foundation

/// The `https` provider: a CSV or TSV file or an `.xlsx` workbook at a URL, read with GET and written back with a
/// conditional PUT whose `Content-Type` says what it holds (`SheetMediaType`).
///
/// Works with WebDAV servers (Apache mod_dav, Nextcloud) and presigned object-store URLs. The pull keeps the
/// response's strong `ETag`; the push sends it in `If-Match`, so the server itself refuses (412) to overwrite a
/// sheet someone changed meanwhile. A weak `ETag` (`W/"…"`, which Apache gives files changed within the last
/// second) never matches `If-Match`, and some servers send none: then the push first reads the sheet again and
/// compares it byte for byte with what was pulled, and writes only if nothing changed.
public struct WebDAVProvider: SheetProvider {
    /// The sheet's address; its query (a presigned signature) is sent but never shown.
    public var url: EndpointURL
    /// The account whose token and limits the requests use.
    public var session: AccountSession

    public init(url: EndpointURL, session: AccountSession) {
        self.url = url
        self.session = session
    }

    public var location: String { url.redacted }

    /// The last component of the URL's path, decoded (`central.csv`); its extension tells the reader the delimiter.
    public var fileName: String {
        let last = url.pathAndQuery.prefix { $0 != "?" }.split(separator: "/").last.map(String.init) ?? ""
        return last.removingPercentEncoding ?? last
    }

    /// GETs the sheet and keeps its strong `ETag` as the version.
    public func pull() throws(SyncError) -> PulledSheet {
        try session.guarded { () throws(SyncError) -> PulledSheet in try pullSheet() }
    }

    /// PUTs `bytes` if the sheet is still as `pulled` left it, else throws `.changedSincePull` and writes nothing.
    public func push(_ bytes: [UInt8], over pulled: PulledSheet) throws(SyncError) {
        try session.guarded { () throws(SyncError) in try pushSheet(bytes, over: pulled) }
    }

    private func pullSheet() throws(SyncError) -> PulledSheet {
        let response = try session.send(HTTPRequest("GET", url), phase: .pull)
        try session.check(response, expecting: [200], phase: .pull)
        return PulledSheet(
            bytes: response.body, fileName: fileName, version: Self.strongETag(of: response), location: location)
    }

    private func pushSheet(_ bytes: [UInt8], over pulled: PulledSheet) throws(SyncError) {
        var condition = pulled.version
        if condition == nil {
            let response = try session.send(HTTPRequest("GET", url), phase: .push)
            if response.status == 404 { throw .changedSincePull(account: session.account, url: location) }
            try session.check(response, expecting: [200], phase: .push)
            guard response.body == pulled.bytes else {
                throw .changedSincePull(account: session.account, url: location)
            }
            condition = Self.strongETag(of: response)
        }
        var headers = [(name: "Content-Type", value: SheetMediaType.header(of: bytes, fileName: fileName))]
        if let condition { headers.append((name: "If-Match", value: condition)) }
        let response = try session.send(HTTPRequest("PUT", url, headers: headers, body: bytes), phase: .push)
        try session.check(response, expecting: [200, 201, 204], phase: .push)
    }

    /// The response's `ETag` when it is a strong one: only those can be used in `If-Match` (RFC 9110 §13.1.1).
    static func strongETag(of response: HTTPResponse) -> String? {
        guard let tag = response.header("etag")?.trimmingCharacters(in: .whitespaces), tag.hasPrefix("\""),
            tag.hasSuffix("\""), tag.count >= 2
        else { return nil }
        return tag
    }
}
