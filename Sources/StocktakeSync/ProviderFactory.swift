import StocktakeCore

/// Makes the provider for a sheet location, with one account's session and the Google API base URLs.
public struct ProviderFactory: Sendable {
    public var session: AccountSession
    public var sheetsAPI: EndpointURL
    public var driveAPI: EndpointURL

    public init(
        session: AccountSession, sheetsAPI: EndpointURL = GoogleSheetsProvider.defaultBaseURL,
        driveAPI: EndpointURL = GoogleDriveProvider.defaultBaseURL
    ) {
        self.session = session
        self.sheetsAPI = sheetsAPI
        self.driveAPI = driveAPI
    }

    /// The origins a run over `locations` talks to: the only places its token may be sent.
    public func origins(of locations: [SheetLocation], reportTo: EndpointURL?) -> Set<String> {
        var origins = Set(reportTo.map { [$0.origin] } ?? [])
        for location in locations {
            switch location {
            case .file: break
            case .https(let url): origins.insert(url.origin)
            case .googleSheet: origins.insert(sheetsAPI.origin)
            case .googleDrive: origins.insert(driveAPI.origin)
            }
        }
        return origins
    }

    /// The provider of `location`; its pull or push fails as the real failure would when the session simulates it
    /// (`--simulate-failure pull`, `push`), without touching the sheet.
    public func provider(for location: SheetLocation) -> any SheetProvider {
        let provider = realProvider(for: location)
        let simulation = session.simulation
        guard simulation.contains(.pull) || simulation.contains(.push) else { return provider }
        return SimulatedFailureProvider(
            base: provider, isLocal: location.isLocal, account: session.account, simulation: simulation)
    }

    private func realProvider(for location: SheetLocation) -> any SheetProvider {
        switch location {
        case .file(let path): FileProvider(path, account: session.account)
        case .https(let url): WebDAVProvider(url: url, session: session)
        case .googleSheet(let id, let range):
            GoogleSheetsProvider(session: session, spreadsheetID: id, range: range, baseURL: sheetsAPI)
        case .googleDrive(let id): GoogleDriveProvider(session: session, fileID: id, baseURL: driveAPI)
        }
    }
}
