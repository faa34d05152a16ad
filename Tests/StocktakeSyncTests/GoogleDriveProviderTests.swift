import Foundation
import StocktakeCore
import StocktakeSync
import Testing

/// GoogleDriveProvider against the emulator: uploaded CSVs and Google Sheets, the version check before writing,
/// and failures that name the account, the URL and what to do while the file keeps its content.
@Suite struct GoogleDriveProviderTests {
    private static let token = "ya29.seeded-token"
    private static let csv = "vt_tag,status\r\nVT-1,ok\r\n"
    private static let exported = "vt_tag,status\r\nVT-7,=SUM(1)\r\n"
    private static let metadataQuery = "?fields=id,name,mimeType,version&supportsAllDrives=true"

    /// An emulator holding an uploaded CSV `central` (version 3) and a Google Sheet `sheet` (version 12).
    private func emulator(access: String = "write") throws -> GoogleEmulator {
        let emulator = try GoogleEmulator.start()
        var state = GoogleEmulator.Setup()
        state.accessTokens = [Self.token: 3600]
        state.files = [
            "central": .init(name: "central.csv", content: Self.csv, version: 3, access: access, sharedDrive: true),
            "sheet": .init(
                name: "Central inventory", mimeType: GoogleDriveProvider.googleSheetType, content: Self.exported,
                version: 12, access: access),
        ]
        try emulator.setUp(state)
        return emulator
    }

    private func provider(
        _ emulator: GoogleEmulator, file: String = "central", token: String = token,
        client: HTTPClient = GoogleEmulator.client()
    ) -> GoogleDriveProvider {
        GoogleDriveProvider(
            session: emulator.session(credentials: GoogleEmulator.FixedToken(value: token), client: client),
            fileID: file, baseURL: emulator.baseURL)
    }

    private func fileURL(_ emulator: GoogleEmulator, _ file: String = "central", upload: Bool = false) -> String {
        "http://127.0.0.1:\(emulator.port)/\(upload ? "upload/" : "")drive/v3/files/\(file)"
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

    // MARK: Pull and push

    @Test func anUploadedCSVIsDownloadedAsItIs() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let pulled = try provider(emulator).pull()
        #expect(
            pulled
                == PulledSheet(
                    bytes: Array(Self.csv.utf8), fileName: "central.csv", version: "3", location: fileURL(emulator)))
        let requests = try emulator.requests()
        #expect(
            requests.map { "\($0.method) \($0.path)" } == [
                "GET /drive/v3/files/central\(Self.metadataQuery)",
                "GET /drive/v3/files/central?alt=media&supportsAllDrives=true",
            ])
        #expect(requests.allSatisfy { $0.headers["authorization"] == "Bearer \(Self.token)" })
    }

    @Test func aGoogleSheetIsExportedAsCSV() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let pulled = try provider(emulator, file: "sheet").pull()
        #expect(
            pulled
                == PulledSheet(
                    bytes: Array(Self.exported.utf8), fileName: "Central inventory.csv", version: "12",
                    location: fileURL(emulator, "sheet")))
        #expect(
            try emulator.requestLines() == [
                "GET /drive/v3/files/sheet\(Self.metadataQuery)", "GET /drive/v3/files/sheet/export?mimeType=text/csv",
            ])
    }

    @Test func pushUploadsTheNewContentAfterCheckingTheVersion() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let provider = provider(emulator)
        let pulled = try provider.pull()
        try emulator.forgetRequests()
        try provider.push(Array("vt_tag,status\r\nVT-1,moved\r\n".utf8), over: pulled)
        #expect(try emulator.file("central") == ("vt_tag,status\r\nVT-1,moved\r\n", 4))
        let requests = try emulator.requests()
        #expect(
            requests.map { "\($0.method) \($0.path)" } == [
                "GET /drive/v3/files/central\(Self.metadataQuery)",
                "PATCH /upload/drive/v3/files/central?uploadType=media&supportsAllDrives=true&fields=id,version",
            ])
        #expect(requests[1].headers["content-type"] == "text/csv")
        #expect(requests[1].headers["authorization"] == "Bearer \(Self.token)")
        #expect(requests[1].body == "vt_tag,status\r\nVT-1,moved\r\n")
    }

    @Test func pushIntoAGoogleSheetConvertsTheCSV() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let provider = provider(emulator, file: "sheet")
        let pulled = try provider.pull()
        try provider.push(Array("a,b\r\n".utf8), over: pulled)
        #expect(try emulator.file("sheet") == ("a,b\r\n", 13))
        #expect(try provider.pull().version == "13")
    }

    @Test func aFileChangedSincePullIsNotOverwritten() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let provider = provider(emulator)
        let pulled = try provider.pull()
        try emulator.edit(file: "central", content: "vt_tag\r\ntheirs\r\n")
        try emulator.forgetRequests()
        expectError(
            .changedSincePull(account: "acme", url: fileURL(emulator)),
            message: "Account acme: \(fileURL(emulator)) was changed by someone else since it was pulled, so it was "
                + "not overwritten. The outputs are kept; the next run pulls the new version and pushes again."
        ) { () throws(SyncError) in
            try provider.push(Array("vt_tag\r\nmine\r\n".utf8), over: pulled)
        }
        #expect(try emulator.file("central") == ("vt_tag\r\ntheirs\r\n", 4))
        #expect(try emulator.requestLines() == ["GET /drive/v3/files/central\(Self.metadataQuery)"])
    }

    @Test func withoutAPulledVersionTheContentIsCompared() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let provider = provider(emulator)
        var pulled = try provider.pull()
        pulled.version = nil
        try emulator.edit(file: "central", content: "vt_tag\r\ntheirs\r\n")
        #expect(throws: SyncError.changedSincePull(account: "acme", url: fileURL(emulator))) {
            try provider.push(Array("vt_tag\r\nmine\r\n".utf8), over: pulled)
        }
        #expect(try emulator.file("central").content == "vt_tag\r\ntheirs\r\n")
    }

    // MARK: Failures

    @Test func anUnknownFileIsNotFound() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let url = fileURL(emulator, "gone")
        expectError(
            .notFound(account: "acme", url: url, detail: "File not found: gone.", phase: .pull),
            message: "Account acme: nothing at \(url) (404): File not found: gone. Check the URL or the sheet's id."
        ) { () throws(SyncError) in
            _ = try provider(emulator, file: "gone").pull()
        }
    }

    @Test func aRejectedStaticTokenIsNotRetriedAndSaysWhereToRenewIt() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let detail =
            "UNAUTHENTICATED: Request had invalid authentication credentials. Expected OAuth 2 access token, login "
            + "cookie or other valid authentication credential. See https://developers.google.com/identity/sig..."
        expectError(
            .credentialsRejected(
                account: "acme", url: fileURL(emulator), status: 401, detail: detail,
                renewal: "Renew it in Jobs/acme/secrets/token."),
            message: "The token for account acme was rejected (401) by \(fileURL(emulator)): \(detail). Renew it in "
                + "Jobs/acme/secrets/token."
        ) { () throws(SyncError) in
            _ = try provider(emulator, token: "ya29.unknown").pull()
        }
        #expect(try emulator.requestLines() == ["GET /drive/v3/files/central\(Self.metadataQuery)"])
    }

    @Test func anAccountWithoutCredentialsIsToldToConfigureThem() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let provider = GoogleDriveProvider(
            session: AccountSession(account: "acme", client: GoogleEmulator.client()), fileID: "central",
            baseURL: emulator.baseURL)
        expectError(
            .credentialsMissing(account: "acme", url: fileURL(emulator), status: 401),
            message: "Account acme: \(fileURL(emulator)) needs credentials (401) and none are configured. Give a "
                + "token with --token-file or STOCKTAKE_TOKEN, or an OAuth file with --oauth."
        ) { () throws(SyncError) in
            _ = try provider.pull()
        }
        let requests = try emulator.requests()
        #expect(requests.count == 1)
        #expect(requests[0].headers["authorization"] == nil)
    }

    @Test func aReadOnlyFileRefusesTheUploadAndKeepsItsContent() throws {
        let emulator = try emulator(access: "read")
        defer { emulator.stop() }
        let provider = provider(emulator)
        let pulled = try provider.pull()
        let url = fileURL(emulator, upload: true)
        expectError(
            .accessDenied(
                account: "acme", url: url,
                detail: "The user does not have sufficient permissions for file central.",
                renewal: "Renew it in Jobs/acme/secrets/token."),
            message: "The token for account acme may not use \(url) (403): The user does not have sufficient "
                + "permissions for file central. Ask the sheet's owner for access, or renew it in "
                + "Jobs/acme/secrets/token."
        ) { () throws(SyncError) in
            try provider.push(Array("vt_tag\r\nmine\r\n".utf8), over: pulled)
        }
        #expect(try emulator.file("central") == (Self.csv, 3))
    }

    @Test(arguments: [301, 302])
    func anUploadRedirectedToAnotherOriginIsRefusedAndTheFileKept(status: Int) throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let provider = provider(emulator)
        let pulled = try provider.pull()
        try emulator.inject(
            .init(
                pathPrefix: "/upload/", method: "PATCH", status: status,
                redirectTo: emulator.recorderURL(path: "/stolen.csv")))
        let url = fileURL(emulator, upload: true)
        let error = SyncError.unreachable(
            account: "acme", error: .redirectedElsewhere(url: url, to: emulator.recorderURL(path: "/stolen.csv")),
            phase: .push)
        expectError(
            error,
            message:
                "Account acme: \(url) redirected to another server (\(emulator.recorderURL(path: "/stolen.csv"))); "
                + "stocktake does not send data there. Check the address. The outputs are kept."
        ) { () throws(SyncError) in
            try provider.push(Array("vt_tag\r\nmine\r\n".utf8), over: pulled)
        }
        #expect(error.exitStatus.rawValue == 75)
        #expect(try emulator.requests().filter { $0.listener == "recorder" }.isEmpty)
        #expect(try emulator.file("central") == (Self.csv, 3))
    }

    @Test func anUploadThatKeepsFailingIsReportedAndTheFileKept() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        let sleeps = SleepRecorder()
        let provider = provider(emulator, client: GoogleEmulator.client(sleeps: sleeps, attempts: 3))
        let pulled = try provider.pull()
        try emulator.inject(.init(pathPrefix: "/upload/", times: -1, status: 500))
        let url = fileURL(emulator, upload: true)
        let error = SyncError.unavailable(
            account: "acme", url: url, status: 500, detail: "INTERNAL: Internal error encountered.", phase: .push)
        expectError(
            error,
            message: "Account acme: \(url) is unavailable (500): INTERNAL: Internal error encountered and stayed so "
                + "after retries. The outputs are kept; the push is retried on the next run."
        ) { () throws(SyncError) in
            try provider.push(Array("vt_tag\r\nmine\r\n".utf8), over: pulled)
        }
        #expect(error.exitStatus.rawValue == 75)
        #expect(sleeps.waits.count == 2)
        #expect(try emulator.file("central") == (Self.csv, 3))
    }

    @Test func aStalledDownloadTimesOut() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/drive/v3/files/central", skip: 1, stallSeconds: 4))
        let client = GoogleEmulator.client(attempts: 1) { limits in
            limits.lowSpeedBytesPerSecond = 1000
            limits.lowSpeedSeconds = 1
        }
        let url = fileURL(emulator)
        expectError(
            .unreachable(account: "acme", error: .timedOut(url: url, seconds: 1), phase: .pull),
            message: "Account acme: \(url) did not answer within 1 seconds. Try again later, or raise the timeout."
        ) { () throws(SyncError) in
            _ = try provider(emulator, client: client).pull()
        }
    }

    @Test func anOversizedDownloadIsRefused() throws {
        let emulator = try emulator()
        defer { emulator.stop() }
        try emulator.inject(.init(pathPrefix: "/drive/v3/files/central", skip: 1, oversizeBytes: 3 << 20))
        let client = GoogleEmulator.client { $0.maximumDownloadBytes = 1 << 20 }
        let url = fileURL(emulator)
        expectError(
            .unreachable(account: "acme", error: .tooLarge(url: url, limit: 1 << 20), phase: .pull),
            message: "Account acme: \(url) sent more than 1 MB, the configured maximum. Check the URL points at the "
                + "sheet, or raise the download limit."
        ) { () throws(SyncError) in
            _ = try provider(emulator, client: client).pull()
        }
        #expect(try emulator.requestLines().count == 2)
    }

    // MARK: An .xlsx workbook in Drive

    /// A synced reconciliation of the Drive file `book` (an `.xlsx` workbook) with a survey held in memory. Its
    /// outputs go to a fresh `drive-…` folder in /tmp, removed when the run returns: the tests look only at the
    /// outcome and at the emulator.
    private func workbookRun(
        _ emulator: GoogleEmulator, afterPull: @escaping @Sendable () -> Void = {}
    ) throws -> SyncedReconcileJob.Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("drive-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let survey = MemorySheet(location: "https://dav.example.org/survey.csv", text: CentralWorkbook.survey)
        let drive = provider(emulator, file: "book")
        var reconcile = ReconcileRequest(
            account: "acme", central: "gdrive:book",
            rules: ReconciliationRules(asOf: InventoryDate(year: 2026, month: 11, day: 20)!),
            outputDirectory: folder + "/out")
        reconcile.sightings = ["https://dav.example.org/survey.csv"]
        var request = SyncedReconcileRequest(reconcile: reconcile)
        request.push = true
        let job = SyncedReconcileJob(
            session: drive.session,
            makeProvider: { location throws(SyncError) in
                guard case .googleDrive = location else { return survey }
                return PullHook(provider: drive, afterPull: afterPull)
            },
            uploadReports: { _, _ throws(SyncError) in })
        return try job.run(request, log: Log(account: "acme", isEnabled: false))
    }

    private func workbookEmulator(_ workbook: [UInt8], name: String = "central.xlsx") throws -> GoogleEmulator {
        let emulator = try GoogleEmulator.start()
        var state = GoogleEmulator.Setup()
        state.accessTokens = [Self.token: 3600]
        state.files = [
            "book": .init(
                name: name, mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                content: "", bytes: workbook, version: 7)
        ]
        try emulator.setUp(state)
        return emulator
    }

    @Test(.enabled(if: CentralWorkbook.hasProducers, "needs python3-xlsxwriter"))
    func aWorkbookIsDownloadedAsItIsAndUploadedAsAWorkbookAfterTheVersionCheck() throws {
        let workbook = try CentralWorkbook.xlsxWriter()
        let emulator = try workbookEmulator(workbook)
        defer { emulator.stop() }
        let outcome = try workbookRun(emulator)
        #expect(outcome.failures.isEmpty)
        #expect(outcome.reconciliation.inputs.map(\.file.displayName).first == "central.xlsx")
        let requests = try emulator.requests()
        #expect(
            requests.map { "\($0.method) \($0.path)" } == [
                "GET /drive/v3/files/book\(Self.metadataQuery)",
                "GET /drive/v3/files/book?alt=media&supportsAllDrives=true",
                "GET /drive/v3/files/book\(Self.metadataQuery)",
                "PATCH /upload/drive/v3/files/book?uploadType=media&supportsAllDrives=true&fields=id,version",
            ])
        #expect(
            requests.last?.headers["content-type"]
                == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        let (pushed, version) = try emulator.fileBytes("book")
        #expect(version == 8)
        try CentralWorkbook.expectOnlyTheWorksheetChanged(pushed, from: workbook)
    }

    @Test(.enabled(if: CentralWorkbook.hasProducers, "needs python3-xlsxwriter"))
    func aWorkbookChangedInDriveAfterThePullIsNotOverwritten() throws {
        let workbook = try CentralWorkbook.xlsxWriter()
        let emulator = try workbookEmulator(workbook)
        defer { emulator.stop() }
        let theirs = Array(workbook.dropLast(22)) + Array(repeating: 0, count: 22)
        // The emulator's control client is used from the job's pull only, one request at a time.
        nonisolated(unsafe) let control = emulator
        let outcome = try workbookRun(emulator) { try? control.edit(file: "book", bytes: theirs) }
        #expect(outcome.failures == [.changedSincePull(account: "acme", url: fileURL(emulator, "book"))])
        #expect(outcome.details.exitStatus == .temporaryFailure)
        #expect(try emulator.fileBytes("book") == (theirs, 8), "the other writer's version survives")
        #expect(try emulator.requests().allSatisfy { $0.method == "GET" }, "nothing was uploaded")
    }

    @Test func aWorkbookWithoutExtensionIsNamedByItsType() throws {
        let emulator = try workbookEmulator(Array("PK\u{3}\u{4}".utf8), name: "Central inventory")
        defer { emulator.stop() }
        let pulled = try provider(emulator, file: "book").pull()
        #expect(pulled.fileName == "Central inventory.xlsx")
        #expect(pulled.bytes == Array("PK\u{3}\u{4}".utf8))
    }
}
