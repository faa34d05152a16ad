import Foundation
import StocktakeCore
import StocktakeSync
import Testing

/// The `https` provider against a real Apache httpd with mod_dav over TLS: ETag on pull, If-Match on push.
@Suite(.serialized, .enabled(if: ApacheServer.isEnabled, "needs apache2 and openssl"), .apacheServer)
struct WebDAVProviderTests {
    let sheet: [UInt8] = Array("asset,room\nVT-0001,A-101\n".utf8)
    let cleaned: [UInt8] = Array("asset,room\nVT-0001,A-102\nVT-0002,B-001\n".utf8)
    let concurrent: [UInt8] = Array("asset,room\nVT-0001,A-109\n".utf8)

    private func provider(_ server: ApacheServer, _ name: String, session: AccountSession? = nil) throws
        -> WebDAVProvider
    {
        WebDAVProvider(url: try EndpointURL(server.url(name)), session: session ?? server.session())
    }

    @Test func pullGetsTheBytesAndTheETag() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "central.csv")
        let pulled = try provider(server, "central.csv").pull()
        #expect(pulled.bytes == sheet)
        #expect(pulled.fileName == "central.csv")
        #expect(pulled.version == (try server.etag(of: "central.csv")))
        #expect(pulled.location == server.url("central.csv"))
    }

    @Test func pushWithTheCurrentETagReplacesTheSheet() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "central.csv")
        let provider = try provider(server, "central.csv")
        try provider.push(cleaned, over: try provider.pull())
        #expect(server.read("central.csv") == cleaned)
    }

    @Test func aChangeSinceThePullIsRefusedByTheServer() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "central.csv")
        let provider = try provider(server, "central.csv")
        let pulled = try provider.pull()
        try server.write(concurrent, to: "central.csv", modifiedSecondsAgo: 5)
        let error = #expect(throws: SyncError.changedSincePull(account: "acme", url: server.url("central.csv"))) {
            try provider.push(cleaned, over: pulled)
        }
        #expect(
            error?.description
                == "Account acme: \(server.url("central.csv")) was changed by someone else since it was pulled, so "
                + "it was not overwritten. The outputs are kept; the next run pulls the new version and pushes again.")
        #expect(error?.exitStatus.rawValue == 75)
        #expect(server.read("central.csv") == concurrent)
    }

    @Test func aSheetDeletedSinceThePullIsNotRecreated() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "central.csv")
        let provider = try provider(server, "central.csv")
        let pulled = try provider.pull()
        server.remove("central.csv")
        #expect(throws: SyncError.changedSincePull(account: "acme", url: server.url("central.csv"))) {
            try provider.push(cleaned, over: pulled)
        }
        #expect(server.read("central.csv") == nil)
    }

    @Test func aWeakETagFallsBackToComparingTheBytes() throws {
        let server = try #require(ApacheServer.current)
        // Changed just now: httpd answers with a weak ETag, which If-Match would never match.
        try server.write(sheet, to: "fresh.csv", modifiedSecondsAgo: 0)
        let provider = try provider(server, "fresh.csv")
        let pulled = try provider.pull()
        #expect(pulled.version == nil)
        try provider.push(cleaned, over: pulled)
        #expect(server.read("fresh.csv") == cleaned)
    }

    @Test func aWeakETagStillNoticesAChange() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "fresh.csv", modifiedSecondsAgo: 0)
        let provider = try provider(server, "fresh.csv")
        let pulled = try provider.pull()
        #expect(pulled.version == nil)
        try server.write(concurrent, to: "fresh.csv", modifiedSecondsAgo: 0)
        #expect(throws: SyncError.changedSincePull(account: "acme", url: server.url("fresh.csv"))) {
            try provider.push(cleaned, over: pulled)
        }
        #expect(server.read("fresh.csv") == concurrent)
    }

    @Test func anotherTokenIsDenied() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "central.csv")
        let url = server.url("central.csv")
        let expected = SyncError.accessDenied(
            account: "acme", url: url, detail: "", renewal: "Renew it in Jobs/acme/secrets/token.")
        let intruder = try provider(server, "central.csv", session: server.session(token: "someone-else"))
        let error = #expect(throws: expected) { try intruder.pull() }
        #expect(
            error?.description
                == "The token for account acme may not use \(url) (403). Ask the sheet's owner for access, or renew "
                + "it in Jobs/acme/secrets/token.")
        #expect(error?.exitStatus.rawValue == 77)
        let pulled = try provider(server, "central.csv").pull()
        #expect(throws: expected) { try intruder.push(cleaned, over: pulled) }
        #expect(server.read("central.csv") == sheet)
    }

    @Test func aMissingSheetIsNotFound() throws {
        let server = try #require(ApacheServer.current)
        let url = server.url("missing.csv")
        let error = #expect(throws: SyncError.notFound(account: "acme", url: url, detail: "", phase: .pull)) {
            try provider(server, "missing.csv").pull()
        }
        #expect(error?.description == "Account acme: nothing at \(url) (404). Check the URL or the sheet's id.")
        #expect(error?.exitStatus.rawValue == 69)
    }

    @Test func withoutTheAuthorityTheServerIsUnreachable() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "central.csv")
        let url = server.url("central.csv")
        let untrusting = try provider(server, "central.csv", session: server.session(trustingTheAuthority: false))
        let failure = HTTPError.connectionFailed(
            url: url, reason: "SSL certificate problem: unable to get local issuer certificate")
        let error = #expect(throws: SyncError.unreachable(account: "acme", error: failure, phase: .pull)) {
            try untrusting.pull()
        }
        #expect(error?.exitStatus.rawValue == 69)
        let pulled = try provider(server, "central.csv").pull()
        #expect(throws: SyncError.unreachable(account: "acme", error: failure, phase: .push)) {
            try untrusting.push(cleaned, over: pulled)
        }
        #expect(server.read("central.csv") == sheet)
    }

    @Test func aQueryStringIsSentButNeverShown() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "central.csv")
        let signed = WebDAVProvider(
            url: try EndpointURL(server.url("central.csv?signature=secret")), session: server.session())
        #expect(signed.location == server.url("central.csv"))
        #expect(signed.fileName == "central.csv")
        let pulled = try signed.pull()
        #expect(pulled.bytes == sheet)
        #expect(pulled.location == server.url("central.csv"))
        let missing = WebDAVProvider(
            url: try EndpointURL(server.url("gone.csv?signature=secret")), session: server.session())
        #expect(throws: SyncError.notFound(account: "acme", url: server.url("gone.csv"), detail: "", phase: .pull)) {
            try missing.pull()
        }
    }

    @Test func theFileNameIsDecoded() throws {
        let server = try #require(ApacheServer.current)
        try server.write(sheet, to: "stock take.tsv")
        let pulled = try provider(server, "stock%20take.tsv").pull()
        #expect(pulled.fileName == "stock take.tsv")
        #expect(pulled.bytes == sheet)
    }

    // MARK: An .xlsx central sheet

    /// A synced reconciliation whose central sheet is `name` on the server and whose survey is held in memory. Its
    /// outputs go to a fresh `webdav-…` folder in /tmp, removed when the run returns: the tests look only at the
    /// outcome and at the server.
    private func workbookRun(
        _ server: ApacheServer, _ name: String, afterPull: @escaping @Sendable () -> Void = {}
    ) throws -> SyncedReconcileJob.Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webdav-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let survey = MemorySheet(location: "https://dav.example.org/survey.csv", text: CentralWorkbook.survey)
        let session = server.session()
        var reconcile = ReconcileRequest(
            account: "acme", central: server.url(name),
            rules: ReconciliationRules(asOf: InventoryDate(year: 2026, month: 11, day: 20)!),
            outputDirectory: folder + "/out")
        reconcile.sightings = ["https://dav.example.org/survey.csv"]
        var request = SyncedReconcileRequest(reconcile: reconcile)
        request.push = true
        let job = SyncedReconcileJob(
            session: session,
            makeProvider: { location throws(SyncError) in
                guard case .https(let url) = location, url.host == "127.0.0.1" else { return survey }
                return PullHook(provider: WebDAVProvider(url: url, session: session), afterPull: afterPull)
            },
            uploadReports: { _, _ throws(SyncError) in })
        return try job.run(request, log: Log(account: "acme", isEnabled: false))
    }

    @Test(.enabled(if: CentralWorkbook.hasProducers, "needs python3-xlsxwriter"))
    func aWorkbookIsPushedWithIfMatchAndTheWorkbookType() throws {
        let server = try #require(ApacheServer.current)
        let workbook = try CentralWorkbook.xlsxWriter()
        try server.write(workbook, to: "central.xlsx")
        let etag = try server.etag(of: "central.xlsx")
        let outcome = try workbookRun(server, "central.xlsx")
        #expect(outcome.failures.isEmpty)
        // httpd's log writes the ETag's quotes as \".
        let logged = etag.replacingOccurrences(of: "\"", with: "\\\"")
        #expect(
            server.requestLog(containing: " /central.xlsx ", count: 2) == [
                "GET /central.xlsx - -",
                "PUT /central.xlsx application/vnd.openxmlformats-officedocument.spreadsheetml.sheet \(logged)",
            ])
        let pushed = try #require(server.read("central.xlsx"))
        try CentralWorkbook.expectOnlyTheWorksheetChanged(pushed, from: workbook)
    }

    @Test(.enabled(if: CentralWorkbook.hasProducers, "needs python3-xlsxwriter"))
    func aWorkbookChangedOnTheServerAfterThePullIsNotOverwritten() throws {
        let server = try #require(ApacheServer.current)
        let workbook = try CentralWorkbook.xlsxWriter()
        try server.write(workbook, to: "changed.xlsx")
        let theirs = Array(workbook.dropLast(22)) + Array(repeating: 0, count: 22)
        let outcome = try workbookRun(server, "changed.xlsx") {
            try? server.write(theirs, to: "changed.xlsx", modifiedSecondsAgo: 5)
        }
        #expect(outcome.failures == [.changedSincePull(account: "acme", url: server.url("changed.xlsx"))])
        #expect(outcome.details.exitStatus == .temporaryFailure)
        #expect(server.read("changed.xlsx") == theirs, "the other writer's version survives")
        #expect(
            server.requestLog(containing: "PUT /changed.xlsx", count: 1).count == 1,
            "the server itself refused the one conditional PUT")
    }

    @Test func aCSVIsStillPushedAsCSVAndATSVAsTabSeparatedValues() throws {
        let server = try #require(ApacheServer.current)
        for name in ["typed.csv", "typed.tsv"] {
            try server.write(sheet, to: name)
            let provider = try provider(server, name)
            try provider.push(cleaned, over: try provider.pull())
        }
        let puts = server.requestLog(containing: "PUT /typed.", count: 2).map { $0.split(separator: " ")[2] }
        #expect(puts == ["text/csv;", "text/tab-separated-values;"])
    }
}

/// A provider that runs `afterPull` after each pull: another writer acting between the pull and the push.
struct PullHook: SheetProvider {
    let provider: any SheetProvider
    let afterPull: @Sendable () -> Void

    var location: String { provider.location }

    func pull() throws(SyncError) -> PulledSheet {
        let pulled = try provider.pull()
        afterPull()
        return pulled
    }

    func push(_ bytes: [UInt8], over pulled: PulledSheet) throws(SyncError) {
        try provider.push(bytes, over: pulled)
    }
}
