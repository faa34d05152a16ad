import Foundation
import StocktakeCore

/// How one account reaches its servers: credentials, trust, limits and API base URLs, as a command or an account
/// configuration gives them.
public struct ConnectionSettings: Sendable {
    /// A file holding a bearer token (mode 0600).
    public var tokenFile: String?
    /// An environment variable holding a bearer token, used when no token file is given.
    public var tokenVariable: String? = "STOCKTAKE_TOKEN"
    /// A JSON file (mode 0600) with `tokenURL`, `clientID`, `clientSecret` and `refreshToken` for the OAuth 2.0
    /// refresh-token grant; the access token is cached beside it in `FILE.cache`.
    public var oauthFile: String?
    public var limits = TransferLimits()
    public var retry = RetryPolicy()
    public var sheetsAPI = GoogleSheetsProvider.defaultBaseURL
    public var driveAPI = GoogleDriveProvider.defaultBaseURL

    public init() {}

    /// The provider factory for one run of `account` over `locations`: its token goes only to their origins. Its
    /// session carries `simulation`, the failures the run rehearses (`--simulate-failure`).
    public func factory(
        account: String, locations: [SheetLocation], reportTo: EndpointURL?,
        simulation: FailureSimulation = FailureSimulation()
    ) throws(SyncError) -> ProviderFactory {
        let client = HTTPClient(limits: limits, retry: retry)
        var factory = ProviderFactory(
            session: AccountSession(account: account, client: client), sheetsAPI: sheetsAPI, driveAPI: driveAPI)
        factory.session.credentials = try credentials(account: account, client: client)
        factory.session.simulation = simulation
        factory.session.allowedOrigins = factory.origins(of: locations, reportTo: reportTo)
        factory.session.configuredURLs =
            locations.compactMap { location in
                if case .https(let url) = location { return url }
                return nil
            } + (reportTo.map { [$0] } ?? [])
        return factory
    }

    /// The account's credentials, if it has any: OAuth first, then a token file, then the token variable.
    func credentials(account: String, client: HTTPClient) throws(SyncError) -> (any BearerTokenSource)? {
        if let oauthFile {
            let text = try SecretsFile.read(oauthFile, account: account)
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                let tokenURL = object["tokenURL"] as? String, let clientID = object["clientID"] as? String,
                let clientSecret = object["clientSecret"] as? String,
                let refreshToken = object["refreshToken"] as? String
            else {
                throw .secrets(
                    account: account, path: oauthFile,
                    reason: "must be a JSON object with tokenURL, clientID, clientSecret and refreshToken")
            }
            let endpoint: EndpointURL
            do {
                endpoint = try EndpointURL(tokenURL)
            } catch {
                throw .secrets(
                    account: account, path: oauthFile, reason: "has a tokenURL that cannot be used: \(error)")
            }
            return OAuthRefreshTokenSource(
                account: account, tokenURL: endpoint, clientID: clientID, clientSecret: clientSecret,
                refreshToken: refreshToken, cacheFile: oauthFile + ".cache",
                renewal: "Renew the refresh token in \(oauthFile).", client: client)
        }
        if let tokenFile { return StaticTokenSource(.file(tokenFile), account: account) }
        if let tokenVariable, ProcessInfo.processInfo.environment[tokenVariable] != nil {
            return StaticTokenSource(.environment(tokenVariable), account: account)
        }
        return nil
    }
}
