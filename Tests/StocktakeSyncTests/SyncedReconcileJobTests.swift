import Foundation
import StocktakeCore
import Testing

@testable import StocktakeSync

/// A sheet held in memory that behaves like a server: versions change on every write, and a push over an old
/// version is refused.
final class MemorySheet: SheetProvider, @unchecked Sendable {
    let location: String
    private let lock = NSLock()
    private var bytes: [UInt8]
    private var version = 1
    var pushFailure: SyncError?
    private(set) var pushes = 0

    init(location: String, text: String) {
        self.location = location
        self.bytes = Array(text.utf8)
    }

    init(location: String, bytes: [UInt8]) {
        self.location = location
        self.bytes = bytes
    }

    var storedBytes: [UInt8] { lock.withLock { bytes } }

    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// Someone else edits the sheet.
    func edit(_ text: String) {
        lock.withLock {
            bytes = Array(text.utf8)
            version += 1
        }
    }

    func pull() throws(SyncError) -> PulledSheet {
        lock.withLock {
            PulledSheet(
                bytes: bytes, fileName: String(location.split(separator: "/").last ?? ""), version: String(version),
                location: location)
        }
    }

    func push(_ bytes: [UInt8], over pulled: PulledSheet) throws(SyncError) {
        if let pushFailure { throw pushFailure }
        let changed: Bool = lock.withLock {
            guard pulled.version == String(version) else { return true }
            self.bytes = bytes
            version += 1
            pushes += 1
            return false
        }
        if changed { throw .changedSincePull(account: "acme", url: location) }
    }
}

@Suite("Synced reconciliation: pull, reconcile, push, report")
struct SyncedReconcileJobTests {
    static let central = """
        VT Tag,CNS #,Serial Number,Building,Room
        4512,C000123,CNF123,BUR,101
        004513,C000124,CNF124,BUR,102

        """
    static let survey = "P-Tag,Serial,Room\n4512,CNF123,205\n4513,CNF124,102\n"

    struct Fixture {
        /// A `synced-…` folder, removed with the last copy of the fixture.
        private let temporaryFolder = TemporaryFolder(prefix: "synced-")
        let central: MemorySheet
        let survey: MemorySheet
        var request: SyncedReconcileRequest

        /// The fixture's folder: the outputs in `out/`.
        var folder: URL { temporaryFolder.url }

        init() throws {
            let folder = temporaryFolder.url
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            central = MemorySheet(
                location: "https://dav.example.org/central.csv", text: SyncedReconcileJobTests.central)
            survey = MemorySheet(location: "https://dav.example.org/survey.csv", text: SyncedReconcileJobTests.survey)
            var reconcile = ReconcileRequest(
                account: "acme", central: "https://dav.example.org/central.csv",
                rules: ReconciliationRules(asOf: InventoryDate(year: 2026, month: 11, day: 20)!),
                outputDirectory: folder.appendingPathComponent("out").path)
            reconcile.sightings = ["https://dav.example.org/survey.csv"]
            request = SyncedReconcileRequest(reconcile: reconcile)
        }

        func job(uploads: UploadRecorder = UploadRecorder()) -> SyncedReconcileJob {
            let central = self.central
            let survey = self.survey
            return SyncedReconcileJob(
                session: AccountSession(account: "acme"),
                makeProvider: { location throws(SyncError) in
                    location.description.hasSuffix("central.csv") ? central : survey
                },
                uploadReports: { files, _ throws(SyncError) in try uploads.take(files) })
        }

        func output(_ name: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent("out").appendingPathComponent(name), encoding: .utf8)
        }
    }

    final class UploadRecorder: @unchecked Sendable {
        var names: [String] = []
        var failure: SyncError?
        func take(_ files: [(name: String, bytes: [UInt8])]) throws(SyncError) {
            if let failure { throw failure }
            names = files.map(\.name)
        }
    }

    @Test func pullsReconcilesAndKeepsTheCentralSnapshot() throws {
        let fixture = try Fixture()
        let outcome = try fixture.job().run(fixture.request, log: Log(account: "acme", isEnabled: false))
        #expect(outcome.failures.isEmpty)
        #expect(outcome.details.exitStatus == .success)
        #expect(outcome.reconciliation.assets.count == 2)
        #expect(try fixture.output("pulled/central.csv") == Self.central)
        #expect(try fixture.output("pulled/survey.csv") == Self.survey)
        #expect(fixture.central.pushes == 0, "no push without --push")
        #expect(outcome.reconciliation.inputs.map(\.file.displayName) == ["central.csv", "survey.csv"])
    }

    @Test func pushWritesTheEditedSheetBack() throws {
        var fixture = try Fixture()
        fixture.request.push = true
        let outcome = try fixture.job().run(fixture.request, log: Log(account: "acme", isEnabled: false))
        #expect(outcome.failures.isEmpty)
        #expect(fixture.central.pushes == 1)
        #expect(fixture.central.text == Self.central.replacingOccurrences(of: "\n4512,", with: "\n004512,"))
        #expect(try fixture.output("pulled/central.csv") == Self.central, "the snapshot is the sheet before the push")
        #expect(
            try fixture.output("summary.txt").contains(
                "Pushed: central sheet → https://dav.example.org/central.csv: 1 cell changed, 0 rows added"))
    }

    /// The outputs a push must never outrun are on disk under their names when the central sheet is pushed; without
    /// a push the same run keeps them waiting to take their names with the reports, and ends with all in place.
    @Test(arguments: [true, false])
    func aPushFindsTheTablesAndChangesCSVInPlace(push: Bool) throws {
        var fixture = try Fixture()
        fixture.request.push = push
        let watched = WatchedSheet(sheet: fixture.central, folder: fixture.folder.appendingPathComponent("out"))
        let survey = fixture.survey
        let job = SyncedReconcileJob(
            session: AccountSession(account: "acme"),
            makeProvider: { location throws(SyncError) -> any SheetProvider in
                location.description.hasSuffix("central.csv") ? watched : survey
            },
            uploadReports: { _, _ throws(SyncError) in })
        let outcome = try job.run(fixture.request, log: Log(account: "acme", isEnabled: false))
        #expect(outcome.failures.isEmpty)
        #expect(fixture.central.pushes == (push ? 1 : 0))
        let tables = ["changes.csv", "cleaned.csv", "cleaned.xlsx", "discrepancies.csv", "discrepancies.xlsx"]
        #expect(watched.namesAtPush == (push ? (tables + ["pulled", "resolved.csv"]).sorted() : nil))
        let names = try FileManager.default.contentsOfDirectory(
            atPath: fixture.folder.appendingPathComponent("out").path)
        #expect(names.filter { $0.hasSuffix(".partial") } == [])
        #expect(Set(ReconcileJob.outputFiles).isSubset(of: names))
    }

    @Test func aSheetChangedBetweenPullAndPushIsNotOverwritten() throws {
        var fixture = try Fixture()
        fixture.request.push = true
        let central = fixture.central
        let survey = fixture.survey
        let job = SyncedReconcileJob(
            session: AccountSession(account: "acme"),
            makeProvider: { location throws(SyncError) in
                guard location.description.hasSuffix("central.csv") else { return survey }
                return EditingProvider(sheet: central)
            },
            uploadReports: { _, _ throws(SyncError) in })
        let outcome = try job.run(fixture.request, log: Log(account: "acme", isEnabled: false))
        #expect(outcome.failures == [.changedSincePull(account: "acme", url: "https://dav.example.org/central.csv")])
        #expect(outcome.details.exitStatus == .temporaryFailure)
        #expect(central.text == "someone else's edit\n", "the other writer's change survives")
        #expect(try fixture.output("cleaned.csv").hasPrefix("vt_tag,"), "outputs are kept")
        let record = try JSONSerialization.jsonObject(with: Data(try fixture.output("run.json").utf8)) as! [String: Any]
        #expect(record["exitStatus"] as? Int == 75)
        #expect((record["push"] as? [String])?.first?.hasPrefix("central sheet NOT pushed: Account acme:") == true)
    }

    /// A local central sheet a clerk edits while the night runs (one byte, the same size, its modification time put
    /// back): the file provider keeps no fingerprint of it, and the push still finds the change by its bytes, through
    /// the same pull, plan and push a nightly run goes through. The clerk's sheet is untouched and the outputs kept.
    @Test func aLocalSheetEditedBetweenPullAndPushIsNotOverwritten() throws {
        var fixture = try Fixture()
        fixture.request.push = true
        let path = fixture.folder.appendingPathComponent("central.csv").path
        try Self.central.write(toFile: path, atomically: true, encoding: .utf8)
        fixture.request.reconcile.central = path
        let edited = Self.central.replacingOccurrences(of: "BUR,102", with: "BUR,103")
        #expect(edited.utf8.count == Self.central.utf8.count && edited != Self.central)
        let survey = fixture.survey
        var job = SyncedReconcileJob(
            session: AccountSession(account: "acme"),
            makeProvider: { location throws(SyncError) in
                guard case .file(let path) = location else { return survey }
                return FileProvider(path, account: "acme")
            },
            uploadReports: { _, _ throws(SyncError) in })
        job.willPush = { _, _ throws(SyncError) in
            var before = stat()
            _ = stat(path, &before)
            try? edited.write(toFile: path, atomically: false, encoding: .utf8)
            var times = [before.st_atim, before.st_mtim]
            _ = utimensat(AT_FDCWD, path, &times, 0)
        }
        let outcome = try job.run(fixture.request, log: Log(account: "acme", isEnabled: false))
        #expect(outcome.failures == [.changedSincePull(account: "acme", url: path)])
        #expect(
            outcome.failures.first?.description
                == "Account acme: \(path) was changed by someone else since it was pulled, so it was not overwritten. "
                + "The outputs are kept; the next run pulls the new version and pushes again.")
        #expect(outcome.details.exitStatus == .temporaryFailure)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == edited, "the clerk's edit survives")
        #expect(try fixture.output("cleaned.csv").hasPrefix("vt_tag,"), "outputs are kept")
        #expect(try fixture.output("changes.csv").utf8.split(separator: 0x0A).count > 1, "the planned edit is kept")
    }

    /// A central sheet saved by Excel on Windows (Windows-1252) or as "Unicode Text" (UTF-16) is reconciled and
    /// its changes listed, but never overwritten with UTF-8: the push is refused with a sentence, status 65.
    @Test(arguments: [TextEncoding.windows1252, .utf16LittleEndian])
    func aCentralSheetThatIsNotUTF8IsNeverPushed(encoding: TextEncoding) throws {
        var fixture = try Fixture()
        fixture.request.push = true
        let text = Self.central.replacingOccurrences(of: "BUR,102", with: "BUR,Salle 102 (\u{E9}t\u{E9})")
        let bytes: [UInt8] =
            encoding == .windows1252
            ? text.unicodeScalars.map { UInt8($0.value) }
            : [0xFF, 0xFE] + text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let central = MemorySheet(location: "https://dav.example.org/central.csv", bytes: bytes)
        let survey = fixture.survey
        let job = SyncedReconcileJob(
            session: AccountSession(account: "acme"),
            makeProvider: { location throws(SyncError) in
                location.description.hasSuffix("central.csv") ? central : survey
            },
            uploadReports: { _, _ throws(SyncError) in })
        let outcome = try job.run(fixture.request, log: Log(account: "acme", isEnabled: false))
        let refusal =
            "Account acme: the central sheet https://dav.example.org/central.csv is encoded as \(encoding.rawValue), "
            + "and stocktake writes back only to a UTF-8 central sheet, so nothing was pushed. Open it in a "
            + "spreadsheet and save it as \"CSV UTF-8\"; the outputs and changes.csv are kept."
        #expect(outcome.failures.map { $0.description } == [refusal])
        #expect(outcome.failures.first?.exitStatus == ExitStatus.dataError)
        #expect(outcome.details.exitStatus == .dataError)
        #expect(central.pushes == 0)
        #expect(central.storedBytes == bytes, "the sheet is untouched")
        #expect(outcome.writeBack.changesSheet, "there was something to push")
        #expect(try fixture.output("changes.csv").contains("004512"), "changes.csv lists what a push would change")
        #expect(
            try fixture.output("discrepancies.csv").contains("SALLE 102 (éTé) in central.csv row 2"), "read as text")
        let record = try JSONSerialization.jsonObject(with: Data(try fixture.output("run.json").utf8)) as! [String: Any]
        #expect(record["exitStatus"] as? Int == 65)
        #expect((record["push"] as? [String]) == ["central sheet NOT pushed: " + refusal])
    }

    @Test func rejectedCredentialsOnPushEndWith77() throws {
        var fixture = try Fixture()
        fixture.request.push = true
        fixture.central.pushFailure = .credentialsRejected(
            account: "acme", url: "https://dav.example.org/central.csv", status: 401, detail: "",
            renewal: "Renew it in Jobs/acme/secrets/token.")
        let outcome = try fixture.job().run(fixture.request, log: Log(account: "acme", isEnabled: false))
        #expect(outcome.details.exitStatus == .noPermission)
        #expect(fixture.central.text == Self.central)
    }

    @Test func aFailedPullStopsBeforeAnyOutput() throws {
        let fixture = try Fixture()
        let job = SyncedReconcileJob(
            session: AccountSession(account: "acme"),
            makeProvider: { _ throws(SyncError) in
                throw .notFound(account: "acme", url: "https://dav.example.org/central.csv", detail: "", phase: .pull)
            },
            uploadReports: { _, _ throws(SyncError) in })
        #expect(
            throws: SyncError.notFound(
                account: "acme", url: "https://dav.example.org/central.csv", detail: "", phase: .pull)
        ) {
            try job.run(fixture.request, log: Log(account: "acme", isEnabled: false))
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.appendingPathComponent("out/cleaned.csv").path))
    }

    /// The pulled sheets are read while they flush, and the run waits for their flushes before it writes anything:
    /// a flush held back 0.3 s still finds no output in the folder when it ends.
    @Test func thePulledSheetsAreOnDiskBeforeAnyOutputIsWritten() throws {
        // The sheets flush on threads of their own, at once: what each saw is appended under a lock.
        final class Seen: @unchecked Sendable {
            private let lock = NSLock()
            private var seen: [[String]] = []
            func append(_ names: [String]) { lock.withLock { seen.append(names) } }
            var names: [[String]] { lock.withLock { seen } }
        }
        let fixture = try Fixture()
        var job = fixture.job()
        let seen = Seen()
        let out = fixture.folder.appendingPathComponent("out").path
        job.synchronize = { descriptor in
            usleep(300_000)
            seen.append(((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).sorted())
            return AtomicFileWriter.synchronize(descriptor)
        }
        _ = try job.run(fixture.request, log: Log(account: "acme", isEnabled: false))
        #expect(seen.names == [["pulled"], ["pulled"]])
        #expect(try fixture.output("pulled/central.csv") == Self.central)
        #expect(try fixture.output("cleaned.csv").hasPrefix("vt_tag,"))
    }

    /// A pulled sheet whose flush fails fails the run with the sentence of the failure, before any output is
    /// written; the sheet that may never reach the disk is not kept, and nothing is pushed.
    @Test func aPulledSheetThatCannotBeFlushedFailsTheRunBeforeAnyOutput() throws {
        var fixture = try Fixture()
        fixture.request.push = true
        var job = fixture.job()
        job.synchronize = { _ in EIO }
        let pulled = fixture.folder.appendingPathComponent("out/pulled/central.csv").path
        #expect(throws: StocktakeError.cannotWrite(path: pulled, reason: "input/output error")) {
            try job.run(fixture.request, log: Log(account: "acme", isEnabled: false))
        }
        let out = fixture.folder.appendingPathComponent("out").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["pulled"])
        #expect(fixture.central.pushes == 0)
    }

    /// An account that uploads its reports finishes computing only once the upload is made: a server never sees
    /// more accounts at once than `--parallel` because one said it only waited for the disk.
    @Test func anAccountThatUploadsFinishesComputingAfterTheUpload() throws {
        var fixture = try Fixture()
        fixture.request.reportTo = try EndpointURL("https://files.example.org/reports/acme/")
        let uploads = UploadRecorder()
        var job = fixture.job(uploads: uploads)
        let namesWhenComputed = UploadRecorder()
        job.didFinishComputing = { namesWhenComputed.names = uploads.names.isEmpty ? ["none"] : uploads.names }
        _ = try job.run(fixture.request, log: Log(account: "acme", isEnabled: false))
        #expect(namesWhenComputed.names == ReconcileJob.outputFiles)
    }

    @Test func reportsAreUploadedAndAFailedUploadIsRecorded() throws {
        var fixture = try Fixture()
        fixture.request.reportTo = try EndpointURL("https://files.example.org/reports/acme/")
        let uploads = UploadRecorder()
        _ = try fixture.job(uploads: uploads).run(fixture.request, log: Log(account: "acme", isEnabled: false))
        #expect(uploads.names == ReconcileJob.outputFiles)
        uploads.failure = .unavailable(
            account: "acme", url: "https://files.example.org/reports/acme/summary.txt", status: 503, detail: "",
            phase: .push)
        let outcome = try fixture.job(uploads: uploads).run(
            fixture.request, log: Log(account: "acme", isEnabled: false))
        #expect(outcome.details.exitStatus == .temporaryFailure)
        #expect(
            try fixture.output("summary.txt").contains(
                "reports NOT uploaded to https://files.example.org/reports/acme/"))
    }
}

/// A provider that notes the names in `folder` (the run's outputs) when its sheet is pushed.
final class WatchedSheet: SheetProvider, @unchecked Sendable {
    let sheet: MemorySheet
    let folder: URL
    /// The visible names in `folder` at the push, in name order; `nil` until a push.
    private(set) var namesAtPush: [String]?

    init(sheet: MemorySheet, folder: URL) {
        self.sheet = sheet
        self.folder = folder
    }

    var location: String { sheet.location }

    func pull() throws(SyncError) -> PulledSheet { try sheet.pull() }

    func push(_ bytes: [UInt8], over pulled: PulledSheet) throws(SyncError) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        namesAtPush = names.filter { !$0.hasPrefix(".") }.sorted()
        try sheet.push(bytes, over: pulled)
    }
}

/// A provider whose sheet is edited by someone else right after every pull.
struct EditingProvider: SheetProvider {
    let sheet: MemorySheet
    var location: String { sheet.location }

    func pull() throws(SyncError) -> PulledSheet {
        let pulled = try sheet.pull()
        sheet.edit("someone else's edit\n")
        return pulled
    }

    func push(_ bytes: [UInt8], over pulled: PulledSheet) throws(SyncError) {
        try sheet.push(bytes, over: pulled)
    }
}

@Suite("Synced reconciliation: a push edits the company's sheet, never replaces it")
struct SyncedWriteBackTests {
    @Test func aPushKeepsEveryRowColumnAndByteItDoesNotChange() throws {
        var fixture = try SyncedReconcileJobTests.Fixture()
        fixture.request.push = true
        let sheet = "VT Tag,Serial,Notes\r\n4512,cnf123,\"=HYPERLINK(\"\"x\"\")\"\r\n004512,CNF123,again\r\n"
        fixture.central.edit(sheet)
        let outcome = try fixture.job().run(fixture.request, log: Log(account: "acme", isEnabled: false))
        #expect(outcome.failures.isEmpty)
        #expect(
            fixture.central.text
                == "VT Tag,Serial,Notes\r\n004512,CNF123,\"=HYPERLINK(\"\"x\"\")\"\r\n004512,CNF123,again\r\n")
        #expect(
            try fixture.output("changes.csv")
                == "row,vt_tag,column,before,after,reason\r\n1,004512,VT Tag,4512,004512,normalized\r\n"
                + "1,004512,Serial,cnf123,CNF123,normalized\r\n")
        #expect(
            try fixture.output("summary.txt").contains(
                "Pushed: central sheet → https://dav.example.org/central.csv: 2 cells changed, 0 rows added"))
        #expect(try fixture.output("pulled/central.csv") == sheet, "the sheet as it was is kept")

        // The next night on the same inputs has nothing to change, and pushes nothing.
        let again = try fixture.job().run(fixture.request, log: Log(account: "acme", isEnabled: false))
        #expect(again.failures.isEmpty)
        #expect(fixture.central.pushes == 1)
        #expect(try fixture.output("changes.csv") == "row,vt_tag,column,before,after,reason\r\n")
        #expect(
            again.details.pushes == ["central sheet → https://dav.example.org/central.csv: up to date, nothing to push"]
        )
    }
}

/// A central sheet that is an `.xlsx` workbook (made by XlsxWriter at test time) is pushed like a CSV one: the same
/// conditional push over the pulled version, with only its worksheet's changed cells edited.
@Suite(
    "Synced reconciliation: an .xlsx central sheet is pushed as an edit of its worksheet",
    .enabled(if: CentralWorkbook.hasProducers, "needs python3-xlsxwriter and python3-openpyxl"))
struct SyncedWorkbookWriteBackTests {
    static let location = "https://dav.example.org/central.xlsx"

    struct Site {
        /// The fixture the site is made from, kept for its folder: the folder is removed when the last copy of the
        /// site is gone.
        private let fixture: SyncedReconcileJobTests.Fixture
        let central: MemorySheet
        var request: SyncedReconcileRequest

        /// The site's folder: the outputs in `out/`.
        var folder: URL { fixture.folder }

        init(workbook: [UInt8]) throws {
            let fixture = try SyncedReconcileJobTests.Fixture()
            fixture.survey.edit(CentralWorkbook.survey)
            self.fixture = fixture
            central = MemorySheet(location: SyncedWorkbookWriteBackTests.location, bytes: workbook)
            request = fixture.request
            request.reconcile.central = SyncedWorkbookWriteBackTests.location
            request.push = true
            survey = fixture.survey
        }

        let survey: MemorySheet

        func job(central: (any SheetProvider)? = nil) -> SyncedReconcileJob {
            let sheet = central ?? self.central
            let survey = self.survey
            return SyncedReconcileJob(
                session: AccountSession(account: "acme"),
                makeProvider: { location throws(SyncError) in
                    location.description.hasSuffix("central.xlsx") ? sheet : survey
                },
                uploadReports: { _, _ throws(SyncError) in })
        }

        func run(central: (any SheetProvider)? = nil) throws -> SyncedReconcileJob.Outcome {
            try job(central: central).run(request, log: Log(account: "acme", isEnabled: false))
        }

        func output(_ name: String) throws -> [UInt8] {
            [UInt8](try Data(contentsOf: folder.appendingPathComponent("out").appendingPathComponent(name)))
        }

        func text(_ name: String) throws -> String {
            String(decoding: try output(name), as: UTF8.self)
        }
    }

    @Test func theWorkbookIsPushedWithOnlyTheChangedCellsOfItsWorksheetEdited() throws {
        let pulled = try CentralWorkbook.xlsxWriter()
        let site = try Site(workbook: pulled)
        let outcome = try site.run()
        #expect(outcome.failures.isEmpty)
        #expect(outcome.details.exitStatus == .success)
        #expect(site.central.pushes == 1)
        #expect(
            try site.text("changes.csv")
                == "row,vt_tag,column,before,after,reason\r\n1,004512,VT Tag,4512,004512,normalized\r\n"
                + "1,004512,Serial Number,cnf123,CNF123,normalized\r\n2,004513,Room,,102,filled\r\n")
        #expect(
            try site.text("summary.txt").contains(
                "Pushed: central sheet → \(Self.location): 3 cells changed, 0 rows added"))
        #expect(try site.output("pulled/central.xlsx") == pulled, "the workbook as it was is kept")
        let pushed = site.central.storedBytes
        // The shared strings, styles, comments, the other sheet: every entry but the worksheet is as it was.
        try CentralWorkbook.expectOnlyTheWorksheetChanged(pushed, from: pulled)
        #expect(try CentralWorkbook.part("xl/sharedStrings.xml", of: pushed).contains("<t>cnf123</t>"))
        let cells = try CentralWorkbook.openpyxlCells(pushed)
        #expect(
            cells["Assets"] == [
                ["s VT Tag", "s Serial Number", "s Building", "s Room", "s Notes"],
                ["s 004512", "s CNF123", "s BUR", "s 101", "s kept"],
                ["s 004513", "s CNF124", "s BUR", "s 102", ""],
                ["s 004514", "s CNF125", "s BUR", "f =\"1\"&\"03\"", "s formula room"],
            ])
        #expect(cells["Other"] == [["s x", "s y"], ["n 1", "f =A2*2"]])
        if CentralWorkbook.hasLibreOffice {
            #expect(
                try CentralWorkbook.libreOfficeCSV(pushed)
                    == "VT Tag,Serial Number,Building,Room,Notes\n004512,CNF123,BUR,101,kept\n"
                    + "004513,CNF124,BUR,102,\n004514,CNF125,BUR,103,formula room\n")
        }

        // The next night on the pushed workbook has nothing to change, and pushes nothing.
        let again = try site.run()
        #expect(again.failures.isEmpty)
        #expect(site.central.pushes == 1)
        #expect(try site.text("changes.csv") == "row,vt_tag,column,before,after,reason\r\n")
        #expect(again.details.pushes == ["central sheet → \(Self.location): up to date, nothing to push"])
    }

    @Test func addUnrecordedAppendsTheUnrecordedTagAsARow() throws {
        var site = try Site(workbook: try CentralWorkbook.xlsxWriter())
        site.request.reconcile.writeBack.addUnrecorded = true
        let outcome = try site.run()
        #expect(outcome.failures.isEmpty)
        #expect(
            try site.text("summary.txt").contains(
                "Pushed: central sheet → \(Self.location): 3 cells changed, 1 row added"))
        let cells = try CentralWorkbook.openpyxlCells(site.central.storedBytes)
        #expect(cells["Assets"]?.last == ["s 004999", "s CNF999", "", "s 300", ""])
        #expect(cells["Assets"]?.count == 5)
    }

    @Test func aWorkbookChangedBetweenPullAndPushIsNotOverwritten() throws {
        let pulled = try CentralWorkbook.xlsxWriter()
        let site = try Site(workbook: pulled)
        let outcome = try site.run(central: EditingProvider(sheet: site.central))
        #expect(outcome.failures == [.changedSincePull(account: "acme", url: Self.location)])
        #expect(
            outcome.failures.first?.description
                == "Account acme: \(Self.location) was changed by someone else since it was pulled, so it was not "
                + "overwritten. The outputs are kept; the next run pulls the new version and pushes again.")
        #expect(outcome.details.exitStatus == .temporaryFailure)
        #expect(site.central.text == "someone else's edit\n", "the other writer's change survives")
        #expect(site.central.pushes == 0)
        #expect(try site.output("pulled/central.xlsx") == pulled)
    }

    @Test func aWorksheetTheEditCannotPlaceExactlyIsNotPushed() throws {
        let pulled = try CentralWorkbook.handWritten(
            sheet: "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>"
                + "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>VT Tag</t></is></c>"
                + "<c r=\"B1\" t=\"inlineStr\"><is><t>Serial Number</t></is></c></row>"
                + "<row r=\"3\"><c r=\"A3\"><v>4513</v></c></row><row r=\"2\"><c r=\"A2\"><v>4512</v></c></row>"
                + "</sheetData></worksheet>")
        let site = try Site(workbook: pulled)
        let outcome = try site.run()
        let refusal =
            "Account acme: \(Self.location): the rows of sheet \"Assets\" are not in ascending order (or a row number "
            + "repeats), so its cells cannot be changed safely; the central sheet was not pushed. Open the workbook "
            + "in Excel or LibreOffice and save it again; changes.csv lists what the push would change. The outputs "
            + "are kept."
        #expect(outcome.failures.map(\.description) == [refusal])
        #expect(outcome.failures.first?.exitStatus == .dataError)
        #expect(outcome.details.exitStatus == .dataError)
        #expect(site.central.pushes == 0)
        #expect(site.central.storedBytes == pulled, "the workbook is untouched")
        #expect(
            try site.text("changes.csv")
                == "row,vt_tag,column,before,after,reason\r\n1,004513,VT Tag,4513,004513,normalized\r\n"
                + "2,004512,VT Tag,4512,004512,normalized\r\n", "changes.csv lists what the push would change")
        let record = try JSONSerialization.jsonObject(with: Data(try site.output("run.json"))) as! [String: Any]
        #expect(record["exitStatus"] as? Int == 65)
        #expect((record["push"] as? [String]) == ["central sheet NOT pushed: " + refusal])
    }
}
