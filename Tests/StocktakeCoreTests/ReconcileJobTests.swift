import Foundation
import StocktakeCore
import Testing

struct ReconcileJobTests {
    let folder = TemporaryFolder()
    let quiet = Log(account: "test", isEnabled: false)

    func request(central: String, out: String = "out") -> ReconcileRequest {
        ReconcileRequest(
            account: "test", central: central,
            rules: ReconciliationRules(asOf: InventoryDate(year: 2026, month: 11, day: 20)!),
            outputDirectory: folder.path(out))
    }

    /// A small account: two central assets, one of them sighted, plus a register with an unknown building.
    func smallAccount() -> ReconcileRequest {
        let central = folder.write(
            "VT Tag,CNS #,Serial,Model,Building\r\n000001,C000001,S1,AP-1,TORG\r\n000002,C000002,S2,AP-1,TORG\r\n",
            to: "account/central.csv")
        folder.write("Tag,Serial,Scan Date\n1,s1,2026-11-01\n", to: "account/scans/north.csv")
        folder.write("VT-2,Nowhere\n", to: "account/scans/notes.txt")
        folder.write("Asset #\tBldg\n000001\tTorgersen Hall\n000002\tNowhere\n", to: "account/register.tsv")
        folder.write("code,name\nTORG,Torgersen Hall\n", to: "account/buildings.csv")
        folder.write(#"{"Asset #": "vt_tag"}"#, to: "account/columns.json")
        var request = request(central: central)
        request.sightings = [SourceEntry(folder.path("account/scans"))]
        request.registers = [SourceEntry(folder.path("account/register.tsv"))]
        request.buildings = folder.path("account/buildings.csv")
        request.columns = folder.path("account/columns.json")
        return request
    }

    @Test func aCentralSheetTooLargeToPlanIsRefusedWithASentenceAndNoChangesFile() throws {
        let request = smallAccount()
        var details = RunDetails(account: "test", started: Date(), outputDirectory: folder.path("out"))
        let reconciliation = try ReconcileJob.reconcile(request, details: &details, log: quiet)
        // The pipeline's order: the tables are written before the write-back is planned.
        try ReconcileJob.writeTables(reconciliation, details: &details)
        let bytes = try ReconcileJob.centralBytes(request.central)
        #expect(throws: StocktakeError.self) {
            _ = try ReconcileJob.planWriteBack(
                bytes, fileName: request.central, request: request, reconciliation: reconciliation,
                details: &details, maximumBytes: bytes.count)
        }
        do {
            _ = try ReconcileJob.planWriteBack(
                bytes, fileName: request.central, request: request, reconciliation: reconciliation,
                details: &details, maximumBytes: bytes.count)
        } catch {
            #expect(
                error.description
                    == "\(request.central): the central sheet is \(bytes.count) bytes, too large to plan its write-back "
                    + "(the limit is \(bytes.count) bytes). Split it into smaller sheets; cleaned.csv and "
                    + "discrepancies.csv are written, changes.csv and the push are not.")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("out/changes.csv")))
        #expect(
            folder.list("out") == [
                "cleaned.csv", "cleaned.xlsx", "discrepancies.csv", "discrepancies.xlsx", "resolved.csv",
            ])
        // One byte more of room and the same sheet is planned.
        _ = try ReconcileJob.planWriteBack(
            bytes, fileName: request.central, request: request, reconciliation: reconciliation, details: &details,
            maximumBytes: bytes.count + 1)
        #expect(FileManager.default.fileExists(atPath: folder.path("out/changes.csv")))
    }

    @Test func writesAllTenOutputs() throws {
        let (reconciliation, details) = try ReconcileJob.run(smallAccount(), log: quiet)
        #expect(
            folder.list("out") == [
                "changes.csv", "cleaned.csv", "cleaned.xlsx", "discrepancies.csv", "discrepancies.xlsx", "ledger.csv",
                "report.html", "resolved.csv", "run.json", "summary.txt",
            ])
        #expect(
            ReconcileJob.outputFiles == [
                "cleaned.csv", "discrepancies.csv", "resolved.csv", "cleaned.xlsx", "discrepancies.xlsx",
                "changes.csv", "report.html", "summary.txt", "ledger.csv", "run.json",
            ])
        #expect(details.path(of: "report.html") == folder.path("out/report.html"))
        #expect(reconciliation.assets.map(\.values.vtTag?.description) == ["000001", "000002"])
        #expect(reconciliation.assets.map(\.values.building) == ["TORG", "TORG"])
        #expect(reconciliation.discrepancies.map(\.code) == [.missing, .unknownBuilding])
        #expect(reconciliation.inputs.map(\.file.displayName) == ["central.csv", "north.csv", "register.tsv"])
        let cleaned = try #require(folder.read("out/cleaned.csv"))
        #expect(
            cleaned.hasPrefix(
                "vt_tag,cns_number,serial_number,mac_address,model,description,building,room,mount,custodian,"
                    + "latitude,longitude,last_seen,stock_number,status,sources\r\n000001,C000001,S1,"))
        #expect(cleaned.split(separator: "\r\n").count == 3)
        #expect(folder.read("out/discrepancies.csv")?.contains("\r\nMISSING,error,000002,") == true)
    }

    @Test func replacesEarlierOutputs() throws {
        folder.write("stale", to: "out/cleaned.csv")
        folder.write("keep me", to: "out/other.txt")
        _ = try ReconcileJob.run(smallAccount(), log: quiet)
        #expect(folder.read("out/cleaned.csv")?.hasPrefix("vt_tag,") == true)
        #expect(folder.read("out/other.txt") == "keep me")
        #expect(
            folder.list("out") == [
                "changes.csv", "cleaned.csv", "cleaned.xlsx", "discrepancies.csv", "discrepancies.xlsx", "ledger.csv",
                "other.txt", "report.html", "resolved.csv", "run.json", "summary.txt",
            ])
    }

    @Test func createsNestedOutputFolders() throws {
        var request = smallAccount()
        request.outputDirectory = folder.path("runs/2026/11/20")
        _ = try ReconcileJob.run(request, log: quiet)
        #expect(folder.list("runs/2026/11/20").count == ReconcileJob.outputFiles.count)
    }

    @Test func foldersExpandToTheirSpreadsheetsInNameOrder() throws {
        let central = folder.write("Tag\n1\n", to: "central.csv")
        let names = [
            "b.csv", "a.TSV", "c.Csv", ".hidden.csv", "notes.md", "d.csv.bak", "e.xlsx", "~$e.xlsx", "f.XLSM", "g.xls",
            "old.csv/x.csv",
        ]
        for name in names {
            folder.write("Tag\n1\n", to: "scans/" + name)
        }
        var request = request(central: central)
        request.sightings = [SourceEntry(folder.path("scans")), SourceEntry(folder.path("extra.csv"))]
        request.registers = [SourceEntry(folder.path("scans"))]
        let files = try ReconcileJob.inputFiles(request)
        #expect(
            files.map(\.path) == [central]
                + ["a.TSV", "b.csv", "c.Csv", "e.xlsx", "f.XLSM", "g.xls"].map {
                    folder.path("scans/" + $0)
                } + [folder.path("extra.csv")]
                + ["a.TSV", "b.csv", "c.Csv", "e.xlsx", "f.XLSM", "g.xls"].map {
                    folder.path("scans/" + $0)
                })
        #expect(
            files.map(\.role) == [.central] + Array(repeating: .sighting, count: 7)
                + Array(repeating: .register, count: 6))
    }

    /// Excel saves "Unicode Text" (UTF-16 with a byte-order mark) and "Text (Tab delimited)" as `.txt`; a clerk's
    /// notes are `.txt` too, and are not sheets.
    @Test func foldersTakeTheTxtFilesThatAreTabSeparatedText() throws {
        folder.write("Tag,Room\n1,2\n", to: "scans/a.csv")
        folder.write([0xFF, 0xFE] + utf16Bytes("Tag\tRoom\r\n1\t2\r\n"), to: "scans/b unicode.txt")
        folder.write([0xFE, 0xFF] + utf16Bytes("Tag\n1\n", bigEndian: true), to: "scans/c one column.TXT")
        folder.write(Array("Tag\tRoom\r\n1\tcaf".utf8) + [0xE9], to: "scans/d tab delimited.txt")
        folder.write([0xFF, 0xFE, 0, 0] + Array("T\0\0\0".utf8), to: "scans/e utf-32.txt")
        folder.write("Remember: the scanner in room 2 is broken.\tReally.\n", to: "scans/f notes.txt")
        folder.write("VT-2,Nowhere\n", to: "scans/notes.txt")
        folder.write("", to: "scans/empty.txt")
        let scans = folder.path("scans")
        #expect(
            try ReconcileJob.expand(scans)
                == ["a.csv", "b unicode.txt", "c one column.TXT", "d tab delimited.txt", "e utf-32.txt", "f notes.txt"]
                .map { scans + "/" + $0 })
    }

    @Test func collidingDisplayNamesGetTheirFolder() throws {
        let central = folder.write("Tag\n1\n", to: "main/scan.csv")
        folder.write("Tag\n1\n", to: "north/scan.csv")
        folder.write("Tag\n1\n", to: "south/scan.csv")
        folder.write("Tag\n1\n", to: "south/other.csv")
        var request = request(central: central)
        request.sightings = [SourceEntry(folder.path("north")), SourceEntry(folder.path("south"))]
        let files = try ReconcileJob.inputFiles(request)
        #expect(
            files.map(\.displayName) == ["main/scan.csv", "north/scan.csv", "other.csv", "south/scan.csv"])
    }

    @Test func displayNamesTakeAsManyFoldersAsNeeded() throws {
        let central = folder.write("Tag\n1\n", to: "central.csv")
        for name in ["2025/north/scan.csv", "2026/north/scan.csv", "2026/south/scan.csv"] {
            folder.write("Tag\n1\n", to: name)
        }
        var request = request(central: central)
        request.sightings = ["2025/north/scan.csv", "2026/north/scan.csv", "2026/south/scan.csv"].map {
            SourceEntry(folder.path($0))
        }
        let files = try ReconcileJob.inputFiles(request)
        #expect(
            files.map(\.displayName) == [
                "central.csv", "2025/north/scan.csv", "2026/north/scan.csv", "south/scan.csv",
            ])
    }

    @Test func centralWithoutAVTTagColumn() throws {
        let central = folder.write("Serial,Model,Asset #\nS1,AP,1\n", to: "central.csv")
        let error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request(central: central), log: quiet) }
        #expect(
            error?.description
                == "\(central): the central sheet has no VT tag column (its columns are \"Serial\", \"Model\", "
                + "\"Asset #\"). Map the tag column with --columns, for example {\"Asset #\": \"vt_tag\"}.")
        #expect(error?.exitStatus == .dataError)
        #expect(folder.list().contains("out") == false)
    }

    @Test func sourceWithoutAnyIdentifierColumn() throws {
        let central = folder.write("Tag\n1\n", to: "central.csv")
        let scan = folder.write("Model,Room\nAP,101\n", to: "scan.csv")
        var request = request(central: central)
        request.sightings = [SourceEntry(scan)]
        let error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request, log: quiet) }
        #expect(
            error?.description
                == "\(scan): no column holds a VT tag, CNS number, serial number or MAC address (its columns are "
                + "\"Model\", \"Room\"). Map one with --columns, for example {\"Asset #\": \"vt_tag\"}.")
        #expect(error?.exitStatus == .dataError)
    }

    @Test func emptySourceIsAllowed() throws {
        let central = folder.write("Tag\n1\n", to: "central.csv")
        var request = request(central: central)
        request.registers = [SourceEntry(folder.write("\n\n", to: "empty.csv"))]
        let (reconciliation, _) = try ReconcileJob.run(request, log: quiet)
        #expect(reconciliation.assets.count == 1)
    }

    @Test(arguments: ["", "\r\n\r\n"])
    func emptyCentral(text: String) throws {
        let central = folder.write(text, to: "central.csv")
        let error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request(central: central), log: quiet) }
        #expect(
            error == .badData(path: central, reason: "the central sheet is empty. Export it again with its header row.")
        )
        #expect(error?.description == "\(central): the central sheet is empty. Export it again with its header row.")
    }

    @Test func missingCentral() throws {
        let central = folder.path("central.csv")
        let error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request(central: central), log: quiet) }
        #expect(error == .missingInput(path: central, what: "file"))
        #expect(error?.exitStatus == .noInput)
    }

    @Test func centralThatIsAFolder() throws {
        let error = #expect(throws: StocktakeError.self) {
            try ReconcileJob.run(request(central: folder.path), log: quiet)
        }
        #expect(error == .usage("--central \(folder.path) is a folder; give the central sheet's file."))
    }

    @Test func missingSighting() throws {
        let central = folder.write("Tag\n1\n", to: "central.csv")
        var request = request(central: central)
        request.sightings = [SourceEntry(folder.path("scans"))]
        let error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request, log: quiet) }
        #expect(error == .missingInput(path: folder.path("scans"), what: "file"))
    }

    @Test func missingColumnsAndBuildingsFiles() throws {
        var request = smallAccount()
        request.columns = folder.path("nope.json")
        #expect(throws: StocktakeError.missingInput(path: folder.path("nope.json"), what: "column mapping")) {
            try ReconcileJob.run(request, log: quiet)
        }
        request = smallAccount()
        request.buildings = folder.path("nope.csv")
        #expect(throws: StocktakeError.missingInput(path: folder.path("nope.csv"), what: "file")) {
            try ReconcileJob.run(request, log: quiet)
        }
        #expect(folder.list().contains("out") == false)
    }

    @Test func outputFolderThatCannotBeCreated() throws {
        folder.write("x", to: "file.txt")
        var request = smallAccount()
        request.outputDirectory = folder.path("file.txt/out")
        let error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request, log: quiet) }
        #expect(error == .cannotWrite(path: folder.path("file.txt/out"), reason: "not a directory"))
        #expect(error?.exitStatus == .cannotCreate)
        #expect(folder.read("file.txt") == "x")
    }

    @Test func brokenColumnMappingStopsTheRun() throws {
        var request = smallAccount()
        folder.write(#"{"Asset #": "asset"}"#, to: "account/columns.json")
        request.columnMapping = ["Notes": .ignored]
        let error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request, log: quiet) }
        #expect(error?.exitStatus == .dataError)
        #expect(folder.list().contains("out") == false)
    }

    @Test func directColumnMappingWinsOverTheFile() throws {
        var request = smallAccount()
        request.columnMapping = ["Asset #": .ignored, "Bldg": .ignored]
        let error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request, log: quiet) }
        #expect(
            error?.description.hasPrefix("\(folder.path("account/register.tsv")): no column holds a VT tag") == true)
    }
}
