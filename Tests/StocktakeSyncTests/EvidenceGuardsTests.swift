import Foundation
import StocktakeCore
import Testing

@testable import StocktakeSync

/// The nightly guards of a synced reconciliation (audit items 1–4): a central sheet that is empty, shrank since the
/// last good run or arrived cut off, a source that yields nothing, and a night where most assets went unseen are
/// refused before anything is written or pushed.
@Suite("Evidence guards: a night without evidence is refused, never pushed")
struct EvidenceGuardsTests {
    static let asOf = InventoryDate(year: 2026, month: 11, day: 20)!
    static let lastGoodNight = CentralBaseline(
        rows: 2970, date: InventoryDate(year: 2026, month: 10, day: 31)!, runID: "20261031T021500Z")

    /// A central sheet of `count` tags from 100001 on, each with its serial written in lower case (so a push has
    /// a canonical form to write).
    static func central(_ count: Int) -> String {
        "VT Tag,Serial\n" + (0..<count).map { "\(100_001 + $0),s\(100_001 + $0)\n" }.joined()
    }

    /// An account with a central sheet on a server and a local sightings folder.
    struct Site {
        /// A `guards-…` folder, removed with the last copy of the site.
        private let temporaryFolder = TemporaryFolder(prefix: "guards-")
        let central: MemorySheet
        var request: SyncedReconcileRequest

        /// The site's folder: the sightings in `scans/`, the outputs in `out/`.
        var folder: String { temporaryFolder.path }

        init(central text: String, sightings: [String: String]) throws {
            let folder = temporaryFolder.path
            try FileManager.default.createDirectory(atPath: folder + "/scans", withIntermediateDirectories: true)
            for (name, text) in sightings {
                try text.write(toFile: folder + "/scans/" + name, atomically: true, encoding: .utf8)
            }
            central = MemorySheet(location: "https://dav.example.org/central.csv", text: text)
            var reconcile = ReconcileRequest(
                account: "acme", central: "https://dav.example.org/central.csv",
                rules: ReconciliationRules(asOf: EvidenceGuardsTests.asOf), outputDirectory: folder + "/out")
            reconcile.sightings = [SourceEntry(folder + "/scans/")]
            request = SyncedReconcileRequest(reconcile: reconcile)
            request.push = true
            request.keepsCentralSnapshot = true
            request.guards = .nightly(baseline: nil, maxShrink: 0.2, maxMissingShare: 0.5)
        }

        /// The job: the memory sheet for the central sheet's usual address, the https provider for a loopback
        /// server's, and files for paths.
        func job() -> SyncedReconcileJob {
            let central = self.central
            let session = AccountSession(account: "acme", client: HTTPClient(sleep: { _ in }))
            return SyncedReconcileJob(
                session: session,
                makeProvider: { location throws(SyncError) in
                    switch location {
                    case .file(let path): return FileProvider(path, account: "acme")
                    case .https(let url) where url.host == "127.0.0.1":
                        return WebDAVProvider(url: url, session: session)
                    default: return central
                    }
                },
                uploadReports: { _, _ throws(SyncError) in })
        }

        func run() throws -> SyncedReconcileJob.Outcome {
            try job().run(request, log: Log(account: "acme", isEnabled: false))
        }

        /// Whether the run wrote any output besides the pulled sheets.
        var wroteOutputs: Bool {
            ReconcileJob.outputFiles.contains { FileManager.default.fileExists(atPath: folder + "/out/" + $0) }
        }
    }

    /// Runs `site` expecting a refusal, and returns its message.
    func refusal(_ site: Site) throws -> String {
        do {
            _ = try site.run()
        } catch let refusal as RunRefusal {
            return refusal.description
        }
        Issue.record("the night was not refused")
        return ""
    }

    // MARK: Item 1: a central sheet with only its header row

    @Test func aCentralSheetWithOnlyItsHeaderIsRefusedOnAFirstNight() throws {
        let site = try Site(central: "VT Tag,Serial\n", sightings: ["a.csv": Self.central(3)])
        #expect(
            try refusal(site)
                == "Account acme: the central sheet https://dav.example.org/central.csv has no rows, only a header or "
                + "nothing: not reconciled or pushed; check the sheet, or run with --accept-shrink if it is really empty."
        )
        #expect(site.central.pushes == 0)
        #expect(site.central.text == "VT Tag,Serial\n")
        #expect(!site.wroteOutputs)
    }

    @Test func aCentralSheetEmptiedAfterAGoodNightIsAShrink() throws {
        var site = try Site(central: "VT Tag,Serial\r\n", sightings: ["a.csv": Self.central(3)])
        site.request.guards.baseline = Self.lastGoodNight
        #expect(
            try refusal(site)
                == "Account acme: the central sheet https://dav.example.org/central.csv has 0 rows, 2,970 on "
                + "2026-10-31 (more than the 20 % rules.maxShrink allows): not reconciled or pushed; check the sheet "
                + "or run with --accept-shrink.")
        #expect(site.central.pushes == 0)
    }

    // MARK: Item 2: a central sheet cut to 10 % of yesterday's rows

    @Test func aCentralSheetCutToATenthOfTheLastGoodNightIsRefused() throws {
        var site = try Site(central: Self.central(297), sightings: ["a.csv": Self.central(2970)])
        site.request.guards.baseline = Self.lastGoodNight
        #expect(
            try refusal(site)
                == "Account acme: the central sheet https://dav.example.org/central.csv has 297 rows, 2,970 on "
                + "2026-10-31 (more than the 20 % rules.maxShrink allows): not reconciled or pushed; check the sheet "
                + "or run with --accept-shrink.")
        #expect(site.central.pushes == 0)
        #expect(site.central.text == Self.central(297))
        #expect(!site.wroteOutputs, "2,673 rows are not re-created as unrecorded")
    }

    /// An account that allows long cells (`rules.maxFieldBytes`) and a sheet cut to 2 rows, one with a 2 MiB cell:
    /// the check before the guards reads with the account's limits, so the shrink is still seen. With the default
    /// limit the check found the sheet unreadable and the guards let it through to be reconciled and pushed.
    @Test func aLongCellTheAccountAllowsDoesNotHideAShrink() throws {
        let long = String(repeating: "x", count: 2 << 20)
        let text = "VT Tag,Serial,Notes\n100001,s1,\(long)\n100002,s2,\n"
        var site = try Site(central: text, sightings: ["a.csv": Self.central(2)])
        site.request.reconcile.rules.limits.maxFieldBytes = 4 << 20
        site.request.guards.baseline = Self.lastGoodNight
        #expect(
            try refusal(site)
                == "Account acme: the central sheet https://dav.example.org/central.csv has 2 rows, 2,970 on "
                + "2026-10-31 (more than the 20 % rules.maxShrink allows): not reconciled or pushed; check the sheet "
                + "or run with --accept-shrink.")
        #expect(site.central.pushes == 0)
        #expect(site.central.text == text)
        #expect(!site.wroteOutputs)
    }

    @Test func acceptShrinkLetsADeliberateCleanupThrough() throws {
        var site = try Site(central: Self.central(297), sightings: ["a.csv": Self.central(297)])
        site.request.guards.baseline = Self.lastGoodNight
        site.request.guards.acceptsShrink = true
        let outcome = try site.run()
        #expect(outcome.failures.isEmpty)
        #expect(outcome.centralRows == 297)
        #expect(site.central.pushes == 1)
    }

    @Test func aShrinkWithinTheLimitIsANormalNight() throws {
        var site = try Site(central: Self.central(2377), sightings: ["a.csv": Self.central(2377)])
        site.request.guards.baseline = Self.lastGoodNight
        let outcome = try site.run()
        #expect(outcome.centralRows == 2377, "2,377 is 80.03 % of 2,970")
        #expect(outcome.failures.isEmpty)
        site.central.edit(Self.central(2375))
        #expect(try refusal(site).contains("has 2,375 rows, 2,970 on 2026-10-31"))
    }

    @Test func aFewRowsRemovedFromASmallSheetAreOrdinaryUpkeep() throws {
        var site = try Site(central: Self.central(3), sightings: ["a.csv": Self.central(3)])
        site.request.guards.baseline = CentralBaseline(rows: 12, date: Self.asOf, runID: "20261120T021500Z")
        #expect(try site.run().centralRows == 3, "9 rows fewer is below the 10-row floor")
        site.request.guards.baseline?.rows = 13
        #expect(try refusal(site).contains("has 3 rows, 13 on 2026-11-20"))
    }

    // MARK: Item 3: a body cut off without a Content-Length

    /// A sheet whose 60 % cut ends in the middle of a row.
    static let longCentral = central(41)

    @Test func aBodyCutAtSixtyPercentIsPulledAgainThenRefused() throws {
        let server = try CutOffServer(sheet: Self.longCentral, fraction: 0.6, cutTimes: -1)
        var site = try Site(central: "", sightings: ["a.csv": Self.longCentral])
        site.request.reconcile.central = server.url
        let message = try refusal(site)
        #expect(
            message
                == "Account acme: http://127.0.0.1:\(server.port)/central.csv arrived incomplete 3 times and was not "
                + "reconciled or pushed; the last row (line 26) has 1 of 2 cells: the transfer was cut off. Pull the "
                + "sheet again, and if that row is short in the sheet itself, complete it there.")
        #expect(server.requests == Array(repeating: "GET /central.csv", count: 3), "pulled three times, never pushed")
        #expect(server.sheet == Self.longCentral)
        #expect(!site.wroteOutputs)
    }

    @Test func aBodyCutOnceIsPulledAgainAndTheWholeSheetIsUsed() throws {
        let server = try CutOffServer(sheet: Self.longCentral, fraction: 0.6, cutTimes: 1)
        var site = try Site(central: "", sightings: ["a.csv": Self.longCentral])
        site.request.reconcile.central = server.url
        let outcome = try site.run()
        #expect(outcome.centralRows == 41)
        #expect(outcome.reconciliation.count(AssetStatus.unrecorded) == 0)
        #expect(server.requests == ["GET /central.csv", "GET /central.csv", "GET /central.csv", "PUT /central.csv"])
    }

    @Test func aQuotedFieldLeftOpenAtTheEndIsACutTransfer() throws {
        let sheet = "VT Tag,Serial,Notes\n100001,S100001,\"a long note that the server\nbreaks off somewhere\"\n"
        let server = try CutOffServer(sheet: sheet, fraction: 0.6, cutTimes: -1)
        var site = try Site(central: "", sightings: ["a.csv": Self.central(1)])
        site.request.reconcile.central = server.url
        #expect(
            try refusal(site).contains(
                "arrived incomplete 3 times and was not reconciled or pushed; a quoted field opened on line 2 is still "
                    + "open at the end: the transfer was cut off."))
        #expect(!server.requests.contains("PUT /central.csv"))
    }

    /// An `.xlsx` central sheet cut off on every pull ends before its ZIP directory: pulled three times, refused,
    /// and the workbook on the server is never pushed over.
    @Test(.enabled(if: CentralWorkbook.hasProducers, "needs python3-xlsxwriter"))
    func aWorkbookCutOffOnEveryPullIsRefusedAndNeverPushedOver() throws {
        let workbook = try CentralWorkbook.xlsxWriter()
        let server = try CutOffServer(bytes: workbook, name: "central.xlsx", fraction: 0.6, cutTimes: -1)
        var site = try Site(central: "", sightings: ["a.csv": CentralWorkbook.survey])
        site.request.reconcile.central = server.url
        #expect(
            try refusal(site)
                == "Account acme: http://127.0.0.1:\(server.port)/central.xlsx arrived incomplete 3 times and was not "
                + "reconciled or pushed; the workbook ends before its ZIP directory: the transfer was cut off. Pull the "
                + "sheet again, and if the file itself is damaged, save the workbook again in Excel.")
        #expect(server.requests == Array(repeating: "GET /central.xlsx", count: 3), "pulled three times, never pushed")
        #expect(server.bytes == workbook)
        #expect(!site.wroteOutputs)
    }

    /// Cut off once, the workbook is pulled again whole, reconciled and pushed as an edit of its worksheet.
    @Test(.enabled(if: CentralWorkbook.hasProducers, "needs python3-xlsxwriter"))
    func aWorkbookCutOffOnceIsPulledAgainAndPushedWhole() throws {
        let workbook = try CentralWorkbook.xlsxWriter()
        let server = try CutOffServer(bytes: workbook, name: "central.xlsx", fraction: 0.6, cutTimes: 1)
        var site = try Site(central: "", sightings: ["a.csv": CentralWorkbook.survey])
        site.request.reconcile.central = server.url
        let outcome = try site.run()
        #expect(outcome.failures.isEmpty)
        #expect(outcome.centralRows == 3)
        #expect(
            server.requests == ["GET /central.xlsx", "GET /central.xlsx", "GET /central.xlsx", "PUT /central.xlsx"])
        try CentralWorkbook.expectOnlyTheWorksheetChanged(server.bytes, from: workbook)
    }

    // MARK: Item 4: sources that yield nothing, and a night where most assets went unseen

    @Test func anEmptySightingsFolderIsRefusedNamingIt() throws {
        let site = try Site(central: Self.central(3), sightings: [:])
        #expect(
            try refusal(site)
                == "Account acme: the sighting source \(site.folder)/scans/ holds no spreadsheet (.csv, .tsv, .txt or "
                + ".xlsx): not reconciled or pushed; check that the share is mounted and the sheets are exported there."
        )
        #expect(site.central.pushes == 0)
        #expect(!site.wroteOutputs)
    }

    @Test func aSightingsFolderOfFilesThatAreNoSpreadsheetsIsRefused() throws {
        let site = try Site(central: Self.central(3), sightings: ["notes.md": "hello", "scan.xlsx.part": "PK"])
        #expect(try refusal(site).contains("the sighting source \(site.folder)/scans/ holds no spreadsheet"))
    }

    @Test func aDamagedWorkbookInTheSightingsFailsTheNightNamingIt() throws {
        let site = try Site(central: Self.central(3), sightings: ["scan.xlsx": "PK\u{3}\u{4}"])
        #expect(throws: StocktakeError.self) { try site.run() }
        do {
            _ = try site.run()
        } catch let error as StocktakeError {
            #expect(
                error.description
                    == "\(site.folder)/scans/scan.xlsx: the workbook file is cut off (it ends before its ZIP directory "
                    + "does); it was not read. Copy the file again from where it came from, or open it in a "
                    + "spreadsheet and save it again.")
        }
        #expect(site.central.pushes == 0)
        #expect(!site.wroteOutputs)
    }

    @Test func sightingsWithOnlyAHeaderAreRefused() throws {
        let site = try Site(
            central: Self.central(3), sightings: ["a.csv": "Tag,Serial\n", "b.csv": "Tag,Serial\r\n\r\n"])
        #expect(
            try refusal(site)
                == "Account acme: the sighting source \(site.folder)/scans/ has no data rows in 2 files: not "
                + "reconciled or pushed; check that the share is mounted and the sheets are exported there.")
    }

    @Test func anEmptyRegisterIsRefusedToo() throws {
        var site = try Site(central: Self.central(3), sightings: ["a.csv": Self.central(3)])
        try "Tag,CNS\n".write(toFile: site.folder + "/register.csv", atomically: true, encoding: .utf8)
        site.request.reconcile.registers = [SourceEntry(site.folder + "/register.csv")]
        #expect(
            try refusal(site).contains("the register source \(site.folder)/register.csv has no data rows in 1 file"))
    }

    @Test func moreThanHalfTheCentralAssetsMissingIsRefusedWithTheNumbers() throws {
        let site = try Site(central: Self.central(3), sightings: ["a.csv": "Tag,Serial\n100001,s100001\n"])
        #expect(
            try refusal(site)
                == "Account acme: 2 of 3 central assets (66.7 %) were seen by no sighting, more than the 50 % "
                + "rules.maxMissingShare allows: not pushed; check that every sighting source is complete.")
        #expect(site.central.pushes == 0)
        #expect(!site.wroteOutputs)
    }

    @Test func exactlyTheMissingShareIsStillANormalNight() throws {
        let site = try Site(central: Self.central(2), sightings: ["a.csv": "Tag,Serial\n100001,s100001\n"])
        let outcome = try site.run()
        #expect(outcome.reconciliation.count(AssetStatus.missing) == 1)
        #expect(site.central.pushes == 1)
    }

    @Test func withoutGuardsAnEmptyFolderIsAnOrdinaryNight() throws {
        var site = try Site(central: Self.central(3), sightings: [:])
        site.request.guards = EvidenceGuards()
        let outcome = try site.run()
        #expect(outcome.reconciliation.count(AssetStatus.missing) == 3)
    }

    // MARK: Item 10: a push is journaled before the sheet is replaced

    @Test func aPushIsRecordedBeforeTheSheetIsWrittenAndForgottenAfter() throws {
        let site = try Site(central: Self.central(2), sightings: ["a.csv": Self.central(2)])
        let events = EventRecorder()
        var job = site.job()
        let central = site.central
        job.willPush = { fingerprint, target throws(SyncError) in
            events.add("will \(fingerprint) \(target) pushes=\(central.pushes)")
        }
        job.didPush = { events.add("did pushes=\(central.pushes)") }
        _ = try job.run(site.request, log: Log(account: "acme", isEnabled: false))
        let pushed = PushIntent.fingerprint(of: Array(central.text.utf8))
        #expect(events.lines == ["will \(pushed) https://dav.example.org/central.csv pushes=0", "did pushes=1"])
    }

    @Test func aPushThatCannotBeRecordedIsNotMade() throws {
        let site = try Site(central: Self.central(2), sightings: ["a.csv": Self.central(2)])
        var job = site.job()
        job.willPush = { _, _ throws(SyncError) in
            throw .refused(
                account: "acme", url: "/state/acme/push-journal.json", status: 0, detail: "the disk is full",
                phase: .push)
        }
        let outcome = try job.run(site.request, log: Log(account: "acme", isEnabled: false))
        #expect(site.central.pushes == 0)
        #expect(outcome.details.exitStatus == .temporaryFailure)
        #expect(
            outcome.failures.first?.description
                == "Account acme: could not write /state/acme/push-journal.json: the disk is full. Check the file and "
                + "the permissions of its folder.")
    }

    @Test func anUnfinishedPushIsRecognisedByTheSheetItLeft() throws {
        var site = try Site(central: Self.central(2), sightings: ["a.csv": Self.central(2)])
        site.request.push = false
        let left = PushIntent.fingerprint(of: Array(Self.central(2).utf8))
        site.request.unfinishedPush = PushIntent(
            runID: "20261119T021500Z", target: "https://dav.example.org/central.csv", fingerprint: left,
            started: Date(timeIntervalSince1970: 0))
        #expect(try site.run().unfinishedPushCompleted == true)
        site.request.unfinishedPush?.fingerprint = "12-0000000000000000"
        let outcome = try site.run()
        #expect(outcome.unfinishedPushCompleted == false)
        #expect(
            outcome.details.pushes == [
                "cleaned.csv of run 20261119T021500Z → https://dav.example.org/central.csv had NOT completed before "
                    + "that run was stopped"
            ])
    }

    final class EventRecorder: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [String] = []
        func add(_ line: String) { lock.withLock { recorded.append(line) } }
        var lines: [String] { lock.withLock { recorded } }
    }
}

extension SyncedReconcileJob.Outcome {
    /// Data rows of the central sheet as tonight's reconciliation read them.
    var centralRows: Int? { reconciliation.inputs.first { $0.file.role == .central }?.rows }
}
