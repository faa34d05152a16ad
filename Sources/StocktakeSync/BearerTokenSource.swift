/// Who the job is to a server: hands out a bearer token and, after a `401`, may fetch a fresh one once.
public protocol BearerTokenSource: Sendable {
    /// The token to send now.
    func token() throws(SyncError) -> String
    /// Called after a `401` for an expired or invalid token; returns true when a different token is now available.
    func refresh() throws(SyncError) -> Bool
    /// Where the user renews the credential, as a sentence ("Renew it in Jobs/acme/secrets/token.").
    var renewal: String { get }
    /// Every secret the source holds now (tokens, a client secret), so that text a server sends back can be
    /// scrubbed of them before it is shown or stored. Never fails: what cannot be read is left out.
    var secrets: [String] { get }
}
