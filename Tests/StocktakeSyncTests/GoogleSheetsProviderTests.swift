import Foundation
import Testing

@testable import StocktakeSync

/// GoogleSheetsProvider against the emulator: what a pull gives, what a push writes, and that every failure names
/// the account, the URL and what to do while the sheet keeps its content.
@Suite struct GoogleSheetsProviderTests {
    private static let token = "ya29.seeded-token"
    private static let inventory: [[String]] = [
        ["vt_tag", "cns_number", "status", ""],
        ["VT-1", "", "ok"],
        ["VT-2"],
        [],
        ["VT-3", "x, y", "=SUM(A1)", "", ""],
        ["", "", ""],
    ]
    private static let inventoryCSV =
        "vt_tag,cns_number,status\r\nVT-1,,ok\r\nVT-2\r\n\"\"\r\nVT-3,\"x, y\",=SUM(A1)\r\n"
    private static let inventoryRows: [[String]] = [
        ["vt_tag", "cns_number", "status"], ["VT-1", "", "ok"], ["VT-2"], [], ["VT-3", "x, y", "=SUM(A1)"],
    ]
    private static let getQuery = "?majorDimension=ROWS&valueRenderOption=FORMATTED_VALUE"

    /// An emulator holding spreadsheet `book` with the tabs Inventory and `Site B`.
    private func emulator(access: String = "write", setup: (inout GoogleEmulator.Setup) -> Void = { _ in }) throws
        -> GoogleEmulator
    {
        let emulator = try GoogleEmulator.start()
        var state = GoogleEmulator.Setup()
        state.accessTokens = [Self.token: 3600]
        state.spreadsheets = [
            "book": .init(
                sheets: [.init(title: "Inventory", values: Self.inventory), .init(title: "Site B", values: [["a"]])],
                access: access)
        ]
        setup(&state)
        try emulator.setUp(state)
        return emulator
    }

    private func provider(
        _ emulator: GoogleEmulator, range: String? = "Inventory", id: String = "book",
        credentials: (any BearerTokenSource)? = nil, client: HTTPClient = GoogleEmulator.client()
    ) -> GoogleSheetsProvider {
        GoogleSheetsProvider(
            session: emulator.session(
                credentials: credentials ?? GoogleEmulator.FixedToken(value: Self.token), client: client),
            spreadsheetID: id, range: range, baseURL: emulator.baseURL)
    }

    private func valuesURL(_ emulator: GoogleEmulator, _ range: String = "Inventory") -> String {
        "http://127.0.0.1:\(emulator.port)/v4/spreadsheets/book/values/\(range)"
    }

    /// Where a push writes: the spreadsheet's `values:batchUpdate`.
    private func batchURL(_ emulator: GoogleEmulator) -> String {
        "http://127.0.0.1:\(emulator.port)/v4/spreadsheets/book/values:batchUpdate"
    }

    private func expectError(_ expected: SyncError, message: String, _ body: () throws(SyncError) -> Void) {
        do throws(SyncError) {
            try body()
            Issue.record("expected \(expected)")
        } catch {
            #expect(error == expected)
            #expect(error.description == message)
        }
    }

    // MARK: Pull

    @Test func pullKeepsRaggedRowsAndOmittedTrailingCellsVerbatim() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let pulled = try provider(emulator).pull()
        #expect(String(decoding: pulled.bytes, as: UTF8.self) == Self.inventoryCSV)
        #expect(pulled.fileName == "book.csv")
        #expect(pulled.location == valuesURL(emulator))
        #expect(pulled.version?.hasPrefix("fnv1a64:") == true)
        let requests = try emulator.requests()
        #expect(
            requests.map { "\($0.method) \($0.path)" } == ["GET /v4/spreadsheets/book/values/Inventory\(Self.getQuery)"]
        )
        #expect(requests[0].headers["authorization"] == "Bearer \(Self.token)")
    }

    @Test func anEmptyRangeHasNoValuesKeyAndPullsAnEmptyFile() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let pulled = try provider(emulator, range: "Inventory!H1:K20").pull()
        #expect(pulled.bytes.isEmpty)
        #expect(pulled.location == valuesURL(emulator, "Inventory%21H1%3AK20"))
    }

    @Test func withoutARangeTheFirstVisibleSheetIsPulled() throws {
        let emulator = try emulator { state in
            state.spreadsheets["book"]?.sheets.insert(.init(title: "Old", values: [["old"]], hidden: true), at: 0)
            state.spreadsheets["book"]?.sheets.swapAt(1, 2)
        }
        defer { emulator.stop() }
        let pulled = try provider(emulator, range: nil).pull()
        #expect(String(decoding: pulled.bytes, as: UTF8.self) == "a\r\n")
        #expect(pulled.location == "http://127.0.0.1:\(emulator.port)/v4/spreadsheets/book")
        #expect(
            try emulator.requestLines() == [
                "GET /v4/spreadsheets/book?fields=sheets.properties(title,hidden)",
                "GET /v4/spreadsheets/book/values/%27Site%20B%27\(Self.getQuery)",
            ])
    }

    @Test func aRedirectToAnotherOriginDoesNotCarryTheToken() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.setRecorderAnswer(
            body: #"{"range":"Inventory!A1:Z1000","majorDimension":"ROWS","values":[["moved"]]}"#)
        try emulator.inject(.init(pathPrefix: "/v4/", redirectTo: emulator.recorderURL(path: "/v4/moved")))
        let pulled = try provider(emulator).pull()
        #expect(String(decoding: pulled.bytes, as: UTF8.self) == "moved\r\n")
        let requests = try emulator.requests()
        #expect(requests.map(\.listener) == ["api", "recorder"])
        #expect(requests[0].headers["authorization"] == "Bearer \(Self.token)")
        #expect(requests[1].headers["authorization"] == nil)
    }

    // MARK: Push

    @Test func pushWritesOnlyTheChangedCellsInOneRawBatchUpdate() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let provider = provider(emulator)
        let pulled = try provider.pull()
        try emulator.forgetRequests()
        try provider.push(Array("vt_tag,status\r\nVT-1,=1+1\r\n".utf8), over: pulled)
        #expect(try emulator.values(of: "book", sheet: "Inventory") == [["vt_tag", "status"], ["VT-1", "=1+1"]])
        #expect(try emulator.values(of: "book", sheet: "Site B") == [["a"]])
        let requests = try emulator.requests()
        #expect(
            requests.map { "\($0.method) \($0.path)" } == [
                "GET /v4/spreadsheets/book/values/Inventory\(Self.getQuery)",
                "POST /v4/spreadsheets/book/values:batchUpdate",
            ])
        let body = try JSONSerialization.jsonObject(with: Data(requests[1].body.utf8)) as? [String: Any]
        #expect(body?["valueInputOption"] as? String == "RAW")
        let data = body?["data"] as? [[String: Any]] ?? []
        #expect(
            data.map { "\($0["range"] as? String ?? "")=\(($0["values"] as? [[String]])?.first?.first ?? "-")" } == [
                "Inventory!B1=status", "Inventory!C1=", "Inventory!B2==1+1", "Inventory!C2=", "Inventory!A3=",
                "Inventory!A5=", "Inventory!B5=", "Inventory!C5=",
            ])
    }

    @Test func aFormulaTheEditLeavesAloneIsNeverSent() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let provider = provider(emulator)
        let pulled = try provider.pull()
        try emulator.forgetRequests()
        // Only VT-1's status changes; the row holding =SUM(A1) is sent back as pulled, so it is not written.
        let edited = String(decoding: pulled.bytes, as: UTF8.self).replacingOccurrences(
            of: "VT-1,,ok", with: "VT-1,,OK")
        try provider.push(Array(edited.utf8), over: pulled)
        let requests = try emulator.requests()
        let body = try JSONSerialization.jsonObject(with: Data(requests[1].body.utf8)) as? [String: Any]
        let data = body?["data"] as? [[String: Any]] ?? []
        #expect(data.map { $0["range"] as? String } == ["Inventory!C2"])
    }

    @Test func cellsOfARangeThatStartsElsewhereAreAddressedFromItsFirstCell() {
        #expect(GoogleSheetsProvider.origin(of: "'Site B'!C3:H") == ("'Site B'", 2, 2))
        #expect(GoogleSheetsProvider.origin(of: "Inventory") == ("Inventory", 0, 0))
        #expect(GoogleSheetsProvider.origin(of: "Register!A:H") == ("Register", 0, 0))
        #expect(
            GoogleSheetsProvider.changedCells([["a", "b"]], over: [["a", "x"]], in: "'Site B'!C3:H").map {
                $0["range"] as? String
            } == ["'Site B'!D3"])
        #expect(GoogleSheetsProvider.columnLetters(1) == "A")
        #expect(GoogleSheetsProvider.columnLetters(26) == "Z")
        #expect(GoogleSheetsProvider.columnLetters(27) == "AA")
        #expect(GoogleSheetsProvider.columnLetters(703) == "AAA")
    }

    @Test func theQuoteThatProtectsFormulasInCSVIsNotWrittenToTheSheet() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let provider = provider(emulator)
        let pulled = try provider.pull()
        try provider.push(
            Array("vt_tag,note\r\nVT-1,'=1+1\r\nVT-2,'+1-555\r\nVT-3,'quoted\r\nVT-4,'-12\r\n".utf8), over: pulled)
        #expect(
            try emulator.values(of: "book", sheet: "Inventory") == [
                ["vt_tag", "note"], ["VT-1", "=1+1"], ["VT-2", "+1-555"], ["VT-3", "'quoted"], ["VT-4", "'-12"],
            ])
    }

    @Test func pushingWhatWasPulledChangesNothing() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let provider = provider(emulator)
        let pulled = try provider.pull()
        try provider.push(pulled.bytes, over: pulled)
        #expect(try emulator.values(of: "book", sheet: "Inventory") == Self.inventoryRows)
        #expect(try provider.pull() == pulled)
    }

    @Test func aSheetChangedSincePullIsNotOverwritten() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let provider = provider(emulator)
        let pulled = try provider.pull()
        let theirs = [["vt_tag", "status"], ["VT-9", "added by someone else"]]
        try emulator.edit(spreadsheet: "book", sheet: "Inventory", values: theirs)
        try emulator.forgetRequests()
        expectError(
            .changedSincePull(account: "acme", url: valuesURL(emulator)),
            message: "Account acme: \(valuesURL(emulator)) was changed by someone else since it was pulled, so it was "
                + "not overwritten. The outputs are kept; the next run pulls the new version and pushes again."
        ) { () throws(SyncError) in
            try provider.push(Array("vt_tag\r\nmine\r\n".utf8), over: pulled)
        }
        #expect(try emulator.values(of: "book", sheet: "Inventory") == theirs)
        #expect(try emulator.requestLines() == ["GET /v4/spreadsheets/book/values/Inventory\(Self.getQuery)"])
        #expect(SyncError.changedSincePull(account: "acme", url: "x").exitStatus.rawValue == 75)
    }

    @Test func aFailedUpdateLeavesTheSheetAsItWas() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let sleeps = SleepRecorder()
        let provider = provider(emulator, client: GoogleEmulator.client(sleeps: sleeps, attempts: 2))
        let pulled = try provider.pull()
        try emulator.inject(.init(pathPrefix: "/v4/", method: "POST", times: -1, status: 503))
        expectError(
            .unavailable(
                account: "acme", url: batchURL(emulator), status: 503,
                detail: "UNAVAILABLE: The service is currently unavailable.", phase: .push),
            message: "Account acme: \(batchURL(emulator)) is unavailable (503): UNAVAILABLE: The service is currently "
                + "unavailable and stayed so after retries. The outputs are kept; the push is retried on the next run."
        ) { () throws(SyncError) in
            try provider.push(Array("vt_tag\r\nmine\r\n".utf8), over: pulled)
        }
        #expect(try emulator.values(of: "book", sheet: "Inventory") == Self.inventoryRows)
        #expect(sleeps.waits.count == 1)
    }

    @Test func aReadOnlySheetRefusesThePushAndKeepsItsContent() throws {
        let emulator = try emulator(access: "read")
        defer { emulator.stop() }
        let provider = provider(emulator)
        let pulled = try provider.pull()
        expectError(
            .accessDenied(
                account: "acme", url: batchURL(emulator),
                detail: "PERMISSION_DENIED: The caller does not have permission",
                renewal: "Renew it in Jobs/acme/secrets/token."),
            message: "The token for account acme may not use \(batchURL(emulator)) (403): PERMISSION_DENIED: The "
                + "caller does not have permission. Ask the sheet's owner for access, or renew it in "
                + "Jobs/acme/secrets/token."
        ) { () throws(SyncError) in
            try provider.push(Array("vt_tag\r\nmine\r\n".utf8), over: pulled)
        }
        #expect(try emulator.values(of: "book", sheet: "Inventory") == Self.inventoryRows)
    }

    // MARK: Credentials

    @Test func anExpiredTokenIsRefreshedOnceAndTheRequestRepeated() throws {
        let emulator = try emulator { $0.refreshTokens = ["1//refresh"] }
        defer { emulator.stop() }
        let source = OAuthRefreshTokenSource(
            account: "acme", tokenURL: emulator.tokenURL, clientID: "emulator-client", clientSecret: "emulator-secret",
            refreshToken: "1//refresh", renewal: "Renew it in Jobs/acme/secrets/oauth.", client: GoogleEmulator.client()
        )
        #expect(try source.token() == "ya29.emulated-access-1")
        try emulator.expire(accessToken: "ya29.emulated-access-1")
        try emulator.forgetRequests()
        let pulled = try provider(emulator, credentials: source).pull()
        #expect(String(decoding: pulled.bytes, as: UTF8.self) == Self.inventoryCSV)
        let requests = try emulator.requests()
        #expect(
            requests.map { "\($0.method) \($0.path)" } == [
                "GET /v4/spreadsheets/book/values/Inventory\(Self.getQuery)", "POST /token",
                "GET /v4/spreadsheets/book/values/Inventory\(Self.getQuery)",
            ])
        #expect(requests[0].headers["authorization"] == "Bearer ya29.emulated-access-1")
        #expect(requests[1].headers["authorization"] == nil)
        #expect(requests[2].headers["authorization"] == "Bearer ya29.emulated-access-2")
    }

    @Test func aTokenRejectedAfterTheRefreshNamesWhereToRenewIt() throws {
        let emulator = try emulator { $0.refreshTokens = ["1//refresh"] }
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/v4/", times: -1, status: 401))
        let source = OAuthRefreshTokenSource(
            account: "acme", tokenURL: emulator.tokenURL, clientID: "emulator-client", clientSecret: "emulator-secret",
            refreshToken: "1//refresh", renewal: "Renew it in Jobs/acme/secrets/oauth.", client: GoogleEmulator.client()
        )
        let detail =
            "UNAUTHENTICATED: Request had invalid authentication credentials. Expected OAuth 2 access token, login "
            + "cookie or other valid authentication credential. See https://developers.google.com/identity/sig..."
        expectError(
            .credentialsRejected(
                account: "acme", url: valuesURL(emulator), status: 401, detail: detail,
                renewal: "Renew it in Jobs/acme/secrets/oauth."),
            message: "The token for account acme was rejected (401) by \(valuesURL(emulator)): "
                + "\(detail). Renew it in Jobs/acme/secrets/oauth."
        ) { () throws(SyncError) in
            _ = try provider(emulator, credentials: source).pull()
        }
        #expect(try emulator.requestLines().filter { $0 == "POST /token" }.count == 2)
        #expect(try emulator.requestLines().count == 4)
    }

    @Test func aRevokedRefreshTokenStopsBeforeAnyRead() throws {
        let emulator = try emulator { $0.refreshTokens = ["1//current"] }
        defer { emulator.stop() }
        let source = OAuthRefreshTokenSource(
            account: "acme", tokenURL: emulator.tokenURL, clientID: "emulator-client", clientSecret: "emulator-secret",
            refreshToken: "1//revoked", renewal: "Renew it in Jobs/acme/secrets/oauth.", client: GoogleEmulator.client()
        )
        let tokenURL = "http://127.0.0.1:\(emulator.port)/token"
        expectError(
            .credentialsRejected(
                account: "acme", url: tokenURL, status: 400,
                detail: "invalid_grant: Token has been expired or revoked.",
                renewal: "Renew it in Jobs/acme/secrets/oauth."),
            message: "The token for account acme was rejected (400) by \(tokenURL): invalid_grant: Token has been "
                + "expired or revoked. Renew it in Jobs/acme/secrets/oauth."
        ) { () throws(SyncError) in
            _ = try provider(emulator, credentials: source).pull()
        }
        #expect(try emulator.requestLines() == ["POST /token"])
    }

    // MARK: Server errors

    @Test func aForbiddenSheetSaysToAskForAccess() throws {
        let emulator = try emulator(access: "none")
        defer { emulator.stop() }
        expectError(
            .accessDenied(
                account: "acme", url: valuesURL(emulator),
                detail: "PERMISSION_DENIED: The caller does not have permission",
                renewal: "Renew it in Jobs/acme/secrets/token."),
            message: "The token for account acme may not use \(valuesURL(emulator)) (403): PERMISSION_DENIED: The "
                + "caller does not have permission. Ask the sheet's owner for access, or renew it in "
                + "Jobs/acme/secrets/token."
        ) { () throws(SyncError) in
            _ = try provider(emulator).pull()
        }
        #expect(try emulator.requestLines().count == 1)
    }

    @Test func anUnknownSpreadsheetIsNotFound() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let url = "http://127.0.0.1:\(emulator.port)/v4/spreadsheets/gone/values/Inventory"
        expectError(
            .notFound(account: "acme", url: url, detail: "NOT_FOUND: Requested entity was not found.", phase: .pull),
            message: "Account acme: nothing at \(url) (404): NOT_FOUND: Requested entity was not found. Check the URL "
                + "or the sheet's id."
        ) { () throws(SyncError) in
            _ = try provider(emulator, id: "gone").pull()
        }
        #expect(SyncError.notFound(account: "a", url: url, detail: "", phase: .pull).exitStatus.rawValue == 69)
    }

    @Test func tooManyRequestsWaitsAsToldThenSucceeds() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/v4/", times: 2, status: 429, retryAfter: "3"))
        let sleeps = SleepRecorder()
        let pulled = try provider(emulator, client: GoogleEmulator.client(sleeps: sleeps)).pull()
        #expect(String(decoding: pulled.bytes, as: UTF8.self) == Self.inventoryCSV)
        #expect(sleeps.waits == [3, 3])
        #expect(try emulator.requestLines().count == 3)
    }

    @Test func aServerErrorThatPersistsIsReportedAfterTheRetries() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/v4/", times: -1, status: 500))
        let sleeps = SleepRecorder()
        expectError(
            .unavailable(
                account: "acme", url: valuesURL(emulator), status: 500, detail: "INTERNAL: Internal error encountered.",
                phase: .pull),
            message: "Account acme: \(valuesURL(emulator)) is unavailable (500): INTERNAL: Internal error encountered "
                + "and stayed so after retries. Try again later."
        ) { () throws(SyncError) in
            _ = try provider(emulator, client: GoogleEmulator.client(sleeps: sleeps)).pull()
        }
        #expect(sleeps.waits.count == 3)
        #expect(try emulator.requestLines().count == 4)
    }

    @Test func aBodyThatIsNotJSONIsABadResponse() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.setRecorderAnswer(contentType: "text/html", body: "<html>captive portal</html>")
        try emulator.inject(.init(pathPrefix: "/v4/", redirectTo: emulator.recorderURL(path: "/portal")))
        let url = emulator.recorderURL(path: "/portal")
        expectError(
            .badResponse(account: "acme", url: url, reason: "the answer is not a JSON object"),
            message: "Account acme: \(url) answered with something unexpected (the answer is not a JSON object). Check "
                + "the URL and the provider."
        ) { () throws(SyncError) in
            _ = try provider(emulator).pull()
        }
    }

    // MARK: Conversions

    @Test func sheetTitlesAreQuotedWhenTheyAreNotPlainWords() {
        #expect(GoogleSheetsProvider.quotedTitle("Inventory_2026") == "Inventory_2026")
        #expect(GoogleSheetsProvider.quotedTitle("Site B") == "'Site B'")
        #expect(GoogleSheetsProvider.quotedTitle("O'Brien") == "'O''Brien'")
        #expect(GoogleSheetsProvider.quotedTitle("Übersicht") == "'Übersicht'")
        #expect(GoogleSheetsProvider.quotedTitle("A-1") == "'A-1'")
    }

    @Test func cellsThatAreNotStringsReadAsTheSheetShowsThem() throws {
        let cells = try JSONSerialization.jsonObject(with: Data("[true, false, 12, 2.5, -3.0, null]".utf8)) as? [Any]
        #expect(cells?.map(GoogleSheetsProvider.text(of:)) == ["TRUE", "FALSE", "12", "2.5", "-3", ""])
    }

    @Test func rangesArePercentEncodedAsOnePathSegment() {
        #expect(GoogleSheetsProvider.pathSegment("'Site B'!A1:K") == "%27Site%20B%27%21A1%3AK")
        #expect(GoogleSheetsProvider.pathSegment("a/b?c#d") == "a%2Fb%3Fc%23d")
    }
}
