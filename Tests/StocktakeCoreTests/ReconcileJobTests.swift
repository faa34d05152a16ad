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

    /// The write-back is planned with the buildings table the sources were read with: a buildings file changed
    /// between the reading and the plan changes nothing in the plan, and is not read again.
    @Test func theWriteBackIsPlannedWithTheBuildingsTheSourcesWereReadWith() throws {
        let request = smallAccount()
        var details = RunDetails(account: "test", started: Date(), outputDirectory: folder.path("out"))
        let reconciliation = try ReconcileJob.reconcile(request, details: &details, log: quiet)
        try ReconcileJob.writeTables(reconciliation, details: &details)
        let bytes = try ReconcileJob.centralBytes(request.central)
        let planned = try ReconcileJob.planWriteBack(
            bytes, fileName: request.central, request: request, reconciliation: reconciliation, details: &details)
        folder.write("code,name\nTORG,Somewhere Else\n", to: "account/buildings.csv")
        let replanned = try ReconcileJob.planWriteBack(
            bytes, fileName: request.central, request: request, reconciliation: reconciliation, details: &details)
        #expect(Array(replanned.changes) == Array(planned.changes))
        try FileManager.default.removeItem(atPath: folder.path("account/buildings.csv"))
        let withoutTheFile = try ReconcileJob.planWriteBack(
            bytes, fileName: request.central, request: request, reconciliation: reconciliation, details: &details)
        #expect(Array(withoutTheFile.changes) == Array(planned.changes))
    }

    /// The plan reads the local central sheet again: its bytes are the file's, and a sheet gone or unreadable by then
    /// is refused with the sentence reading it gives, before `changes.csv` is written.
    @Test func theCentralSheetIsPlannedFromItsFileOrRefusedWithASentence() throws {
        let request = smallAccount()
        let bytes = try ReconcileJob.centralBytes(request.central)
        #expect(bytes == Array(try #require(FileManager.default.contents(atPath: request.central))))

        let gone = folder.path("account/gone.csv")
        let missing = #expect(throws: StocktakeError.self) { try ReconcileJob.centralBytes(gone) }
        #expect(missing == .missingInput(path: gone, what: "file"))
        #expect(missing?.description == "\(gone): no such file. Check the path, or create it.")

        let folderPath = folder.path("account")
        let unreadable = #expect(throws: StocktakeError.self) { try ReconcileJob.centralBytes(folderPath) }
        #expect(unreadable == .unreadableInput(path: folderPath, reason: "it cannot be read (Is a directory)"))
        #expect(unreadable?.description == "\(folderPath): it cannot be read (Is a directory).")
        #expect(unreadable?.exitStatus == .noInput)
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
                    + "latitude,longitude,last_seen,stock_number,cost,status,sources,building_name,findings\r\n"
                    + "000001,C000001,S1,"))
        #expect(cleaned.split(separator: "\r\n").count == 3)
        #expect(folder.read("out/discrepancies.csv")?.contains("\r\nMISSING,error,000002,") == true)
    }

    /// A billing register's unit costs reach the report's per-building table, summed by building; an account whose
    /// sources give no cost has no billing column at all.
    @Test func theReportBillsEachBuildingTheSumOfItsUnitCosts() throws {
        var request = smallAccount()
        folder.write("Tag,Amount\n000001,\"$1,195.50\"\n", to: "account/billing.csv")
        request.registers.append(SourceEntry(folder.path("account/billing.csv")))
        let (reconciliation, _) = try ReconcileJob.run(request, log: quiet)
        // By hand: TORG holds 000001 ($1,195.50) and 000002 (no cost).
        #expect(
            BillingTotals(reconciliation).buildings == [
                .init(building: "TORG", name: "Torgersen Hall", assets: 2, costedAssets: 1, totalCents: 119_550)
            ])
        let page = try #require(folder.read("out/report.html"))
        #expect(page.contains("<th scope=\"col\">Billing total</th>"))
        #expect(page.contains(">1,195.50 (1 without a cost)</td>"))

        let (unbilled, _) = try ReconcileJob.run(smallAccount(), log: quiet)
        #expect(!BillingTotals(unbilled).hasCosts)
        #expect(folder.read("out/report.html")?.contains("Billing total") == false)
    }

    /// A cost written with a comma for the cents is left out of the bill and said, in the sentence the clerk reads.
    @Test func aCostThatCouldBeReadTwoWaysIsAnInvalidValueNotABill() throws {
        var request = smallAccount()
        folder.write("Tag,Amount\n000001,\"12,50\"\n", to: "account/billing.csv")
        request.registers.append(SourceEntry(folder.path("account/billing.csv")))
        let (reconciliation, _) = try ReconcileJob.run(request, log: quiet)
        #expect(
            reconciliation.discrepancies.filter { $0.code == .invalidValue }.map(\.message) == [
                "The unit cost \"12,50\" in billing.csv row 1 (VT tag 000001) has a comma that does not separate "
                    + "thousands; write the cost with a dot before the cents, such as 1234.50. It was left out; correct "
                    + "the cell."
            ])
        #expect(!BillingTotals(reconciliation).hasCosts)
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

/// Issue 11's special workbooks, read through the source path (`ReconcileJob` expanding and reading the sources) as
/// a clerk's account would: each is read exactly like the CSV Excel would save from it, or refused with one sentence
/// naming the file, before anything is written.
extension ReconcileJobTests {
    /// The parts of a workbook with `sheets` (name, hidden, the `<row>` elements), and a shared strings and a
    /// styles part when given.
    static func workbookParts(
        _ sheets: [(name: String, hidden: Bool, rows: String)], sharedStrings: String? = nil,
        styles: String? = nil, date1904: Bool = false, sheetTail: String = ""
    ) -> [(String, String)] {
        let entries = sheets.indices.map { index in
            "<sheet name=\"\(sheets[index].name)\" sheetId=\"\(index + 1)\""
                + (sheets[index].hidden ? " state=\"hidden\"" : "") + " r:id=\"rId\(index + 1)\"/>"
        }
        var relationships = sheets.indices.map {
            (id: "rId\($0 + 1)", type: "worksheet", target: "worksheets/sheet\($0 + 1).xml")
        }
        var parts: [(String, String)] = [
            ("_rels/.rels", WorkbookTests.rootRelationships),
            (
                "xl/workbook.xml",
                "<workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" "
                    + "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">"
                    + (date1904 ? "<workbookPr date1904=\"1\"/>" : "") + "<sheets>" + entries.joined()
                    + "</sheets></workbook>"
            ),
        ]
        for (index, sheet) in sheets.enumerated() {
            parts.append(
                (
                    "xl/worksheets/sheet\(index + 1).xml",
                    "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>"
                        + sheet.rows + "</sheetData>" + sheetTail + "</worksheet>"
                ))
        }
        if let sharedStrings {
            relationships.append(("rIdS", "sharedStrings", "sharedStrings.xml"))
            parts.append(("xl/sharedStrings.xml", sharedStrings))
        }
        if let styles {
            relationships.append(("rIdT", "styles", "styles.xml"))
            parts.append(("xl/styles.xml", styles))
        }
        parts.append(("xl/_rels/workbook.xml.rels", WorkbookTests.relationships(relationships)))
        return parts
    }

    /// Writes the workbook made of `parts` to `name` in the test's folder and returns its path.
    func writeWorkbook(_ parts: [(String, String)], to name: String) throws -> String {
        folder.write(try pythonZip(WorkbookTests.workbookScript(parts), in: folder), to: name)
    }

    /// Inline string cells, one per text, in columns A, B, C ...
    static func inlineRow(_ row: Int, _ texts: [String]) -> String {
        let cells = texts.enumerated().map { column, text in
            let reference = String(UnicodeScalar(UInt8(ascii: "A") + UInt8(column))) + String(row)
            return "<c r=\"\(reference)\" t=\"inlineStr\"><is><t>\(text)</t></is></c>"
        }
        return "<row r=\"\(row)\">" + cells.joined() + "</row>"
    }

    /// Reconciles an account whose central sheet is `central` and whose sighting is `scans.csv` holding `scans`.
    func reconcileAccount(central: String, scans: String = "Tag,Serial\n1,S1\n", out: String) throws -> (
        Reconciliation, String
    ) {
        var request = request(central: central, out: out)
        request.sightings = [SourceEntry(folder.write(scans, to: "scans.csv"))]
        let (reconciliation, _) = try ReconcileJob.run(request, log: quiet)
        return (reconciliation, folder.read(out + "/cleaned.csv") ?? "")
    }

    /// Expects the central workbook made of `parts` to reconcile exactly like `csv`, the central sheet Excel would
    /// save from it: the same cleaned table and findings, `central.xlsx` read as `central.csv`. Returns the
    /// workbook's reconciliation.
    func expectReadLikeCSV(_ parts: [(String, String)], csv: String) throws -> Reconciliation {
        let (reference, referenceCleaned) = try reconcileAccount(
            central: folder.write(csv, to: "central.csv"), out: "out-csv")
        let (result, cleaned) = try reconcileAccount(
            central: try writeWorkbook(parts, to: "central.xlsx"), out: "out-xlsx")
        #expect(cleaned.replacingOccurrences(of: "central.xlsx", with: "central.csv") == referenceCleaned)
        let messages = result.discrepancies.map {
            "\($0.code) " + $0.message.replacingOccurrences(of: "central.xlsx", with: "central.csv")
        }
        #expect(messages == reference.discrepancies.map { "\($0.code) \($0.message)" })
        return result
    }

    @Test func aWorkbookWithoutSharedStringsOrStylesReadsItsInlineStrings() throws {
        let rows =
            Self.inlineRow(1, ["VT Tag", "Serial", "Building"])
            + "<row r=\"2\"><c r=\"A2\"><v>1</v></c><c r=\"B2\" t=\"inlineStr\"><is><t>S1</t></is></c>"
            + "<c r=\"C2\" t=\"inlineStr\"><is><r><t>TO</t></r><r><t>RG</t></r></is></c></row>"
            + Self.inlineRow(3, ["000002", "S2", "TORG"])
        let parts = Self.workbookParts([("Sheet1", false, rows)])
        #expect(!parts.contains { $0.0.contains("sharedStrings") || $0.0.contains("styles") })
        let result = try expectReadLikeCSV(parts, csv: "VT Tag,Serial,Building\n1,S1,TORG\n000002,S2,TORG\n")
        #expect(result.assets.map { $0.values.vtTag?.description } == ["000001", "000002"])
        #expect(result.found(.missing).map { $0.vtTag?.description } == ["000002"])
    }

    /// Excel keeps a merged range's value in its first cell and saves the others empty in a CSV; so does the
    /// reader: the header "Serial" merged over B1:C1 leaves column C unnamed, the building merged over D2:D3 is
    /// only row 2's.
    @Test func mergedCellsReadAsTheirFirstCellWithEmptyOthers() throws {
        let rows =
            "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>VT Tag</t></is></c>"
            + "<c r=\"B1\" t=\"inlineStr\"><is><t>Serial</t></is></c><c r=\"C1\"/>"
            + "<c r=\"D1\" t=\"inlineStr\"><is><t>Building</t></is></c></row>"
            + Self.inlineRow(2, ["000001", "S1", "spare", "TORG"]) + Self.inlineRow(3, ["000002", "S2", "spare"])
        let parts = Self.workbookParts(
            [("Sheet1", false, rows)],
            sheetTail: "<mergeCells count=\"2\"><mergeCell ref=\"B1:C1\"/><mergeCell ref=\"D2:D3\"/></mergeCells>")
        let result = try expectReadLikeCSV(
            parts, csv: "VT Tag,Serial,,Building\n000001,S1,spare,TORG\n000002,S2,spare,\n")
        #expect(result.assets.map { $0.values.building ?? "" } == ["TORG", ""])
    }

    /// A workbook of sightings with hidden sheets: "Old" (hidden, first), "Scans", "Archive" (hidden), "Extra".
    func sightingsWithHiddenSheets() throws -> String {
        let parts = Self.workbookParts([
            ("Old", true, Self.inlineRow(1, ["Tag", "Serial"]) + Self.inlineRow(2, ["000004", "S4"])),
            ("Scans", false, Self.inlineRow(1, ["Tag", "Serial"]) + Self.inlineRow(2, ["000001", "S1"])),
            ("Archive", true, Self.inlineRow(1, ["Tag", "Serial"]) + Self.inlineRow(2, ["000002", "S2"])),
            ("Extra", false, Self.inlineRow(1, ["Tag", "Serial"]) + Self.inlineRow(2, ["000003", "S3"])),
        ])
        return try writeWorkbook(parts, to: "scans.xlsx")
    }

    /// The tags reconciled as sighted (not missing) when the sightings are `entry`.
    func sightedTags(_ entry: SourceEntry) throws -> [String] {
        let central = folder.write("VT Tag\n000001\n000002\n000003\n000004\n", to: "central.csv")
        var request = request(central: central)
        request.sightings = [entry]
        let (reconciliation, _) = try ReconcileJob.run(request, log: quiet)
        let missing = Set(reconciliation.found(.missing).compactMap { $0.vtTag?.description })
        return ["000001", "000002", "000003", "000004"].filter { !missing.contains($0) }
    }

    @Test func hiddenSheets() throws {
        let scans = try sightingsWithHiddenSheets()
        let error = #expect(throws: StocktakeError.self) {
            try sightedTags(SourceEntry(scans, sheets: .named("APs")))
        }
        #expect(
            error?.description
                == "\(scans): the workbook has no sheet named \"APs\"; its sheets are \"Old\", \"Scans\", "
                + "\"Archive\", \"Extra\". Check the sheet's name where it is given (the account's sources, --central-sheet or --sheet)."
        )
        #expect(error?.exitStatus == .dataError)
        #expect(!folder.list().contains("out"))
        // By default the first visible sheet, the one Excel opens on; not the hidden first one.
        #expect(try sightedTags(SourceEntry(scans)) == ["000001"])
        // Every sheet: the visible ones only, each a source named by its sheet.
        #expect(try sightedTags(SourceEntry(scans, sheets: .all)) == ["000001", "000003"])
        #expect(
            try ReconcileJob.expand(SourceEntry(scans, sheets: .all), role: .sighting).map(\.displayName) == [
                "scans.xlsx[Scans]", "scans.xlsx[Extra]",
            ])
        // A hidden sheet named explicitly is read.
        #expect(try sightedTags(SourceEntry(scans, sheets: .named("Archive"))) == ["000002"])
    }

    /// Dates in a workbook of the 1904 date system: serial 43830 is 2024-01-01 (it would be 2019-12-31 in 1900's).
    @Test func aWorkbookInThe1904DateSystem() throws {
        let rows =
            Self.inlineRow(1, ["VT Tag", "Serial", "Last Inventory Date"])
            + "<row r=\"2\"><c r=\"A2\"><v>1</v></c><c r=\"B2\" t=\"inlineStr\"><is><t>S1</t></is></c>"
            + "<c r=\"C2\" s=\"1\"><v>43830</v></c></row>"
            + "<row r=\"3\"><c r=\"A3\"><v>2</v></c><c r=\"B3\" t=\"inlineStr\"><is><t>S2</t></is></c>"
            + "<c r=\"C3\" s=\"2\"><v>43830.75</v></c></row>"
        let styles = """
            <styleSheet><numFmts><numFmt numFmtId="164" formatCode="yyyy-mm-dd h:mm"/></numFmts>\
            <cellXfs><xf/><xf numFmtId="14"/><xf numFmtId="164"/></cellXfs></styleSheet>
            """
        let parts = Self.workbookParts([("Sheet1", false, rows)], styles: styles, date1904: true)
        let result = try expectReadLikeCSV(
            parts, csv: "VT Tag,Serial,Last Inventory Date\n1,S1,2024-01-01\n2,S2,2024-01-01T18:00:00\n")
        #expect(result.assets.map { $0.values.lastSeen?.description } == ["2024-01-01", "2024-01-01"])
    }

    /// The sources a workbook refusal is checked with: the central sheet and a sighting workbook at `path`.
    func refusal(ofSighting path: String) -> StocktakeError? {
        let central = folder.write("VT Tag\n000001\n", to: "central.csv")
        var request = request(central: central)
        request.sightings = [SourceEntry(folder.write("Tag\n1\n", to: "scans.csv")), SourceEntry(path)]
        let error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request, log: quiet) }
        #expect(error?.exitStatus == .dataError)
        #expect(!folder.list().contains("out"), "nothing is written")
        return error
    }

    @Test func aTruncatedWorkbookIsRefused() throws {
        let parts = Self.workbookParts([("Sheet1", false, Self.inlineRow(1, ["Tag"]) + Self.inlineRow(2, ["1"]))])
        let whole = try pythonZip(WorkbookTests.workbookScript(parts), in: folder)
        for length in [whole.count - 10, whole.count / 2, 40] {
            let path = folder.write(Array(whole.prefix(length)), to: "cut.xlsx")
            #expect(
                refusal(ofSighting: path)?.description
                    == "\(path): the workbook file is cut off (it ends before its ZIP directory does); it was not "
                    + "read. Copy the file again from where it came from, or open it in a spreadsheet and save it "
                    + "again.", "cut at \(length) of \(whole.count) bytes")
        }
    }

    /// A sheet part of 64 MiB of spaces deflates more than 1,000 times: refused as a bomb, before it is inflated.
    @Test func aZipBombIsRefused() throws {
        let parts = Self.workbookParts([("Sheet1", false, "")]).filter { $0.0 != "xl/worksheets/sheet1.xml" }
        let script =
            WorkbookTests.workbookScript(parts).replacingOccurrences(
                of: "zipfile.ZIP_DEFLATED)", with: "zipfile.ZIP_DEFLATED, compresslevel=9)")
            + "    z.writestr('xl/worksheets/sheet1.xml', b'<worksheet><sheetData>' + b' ' * (64 << 20) "
            + "+ b'</sheetData></worksheet>')\n"
        let path = folder.write(try pythonZip(script, in: folder), to: "bomb.xlsx")
        #expect(
            refusal(ofSighting: path)?.description
                == "\(path): the entry xl/worksheets/sheet1.xml inflates to more than 1000 times its compressed size "
                + "(a ZIP bomb?); it was not read. Check where the file came from and export the workbook again.")
    }

    /// An external entity pointing at a port this test listens on, declared in each part the reader parses: the
    /// workbook is refused naming the part, and nothing connects to the port (the entity is never fetched).
    @Test(arguments: ["xl/worksheets/sheet1.xml", "xl/sharedStrings.xml", "xl/styles.xml", "xl/workbook.xml"])
    func entityDeclarationsAreRefusedNeverFetched(part: String) throws {
        let listener = try LoopbackListener()
        let declaration =
            "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY secret SYSTEM \"http://127.0.0.1:\(listener.port)/x\">]>"
        var parts = Self.workbookParts(
            [("Sheet1", false, Self.inlineRow(1, ["Tag"]) + "<row r=\"2\"><c t=\"s\"><v>0</v></c></row>")],
            sharedStrings: "<sst><si><t>1</t></si></sst>",
            styles: "<styleSheet><numFmts><numFmt numFmtId=\"164\" formatCode=\"0\"/></numFmts></styleSheet>")
        let index = try #require(parts.firstIndex { $0.0 == part })
        // The declaring part uses the entity where it has text: the sheet's inline string, the shared string, a
        // format code, a sheet's name.
        parts[index].1 =
            declaration
            + parts[index].1.replacingOccurrences(of: "<t>Tag</t>", with: "<t>&secret;</t>")
            .replacingOccurrences(of: "<t>1</t>", with: "<t>&secret;</t>")
            .replacingOccurrences(of: "formatCode=\"0\"", with: "formatCode=\"&secret;\"")
            .replacingOccurrences(of: "name=\"Sheet1\"", with: "name=\"&secret;\"")
        #expect(parts[index].1.contains("&secret;<") || parts[index].1.contains("&secret;\""))
        let path = try writeWorkbook(parts, to: "scans.xlsx")
        #expect(
            refusal(ofSighting: path)?.description
                == "\(path): the workbook part \(part) declares XML entities, which stocktake refuses to read (they "
                + "can hide or fetch content). Open the workbook in Excel and save it again as .xlsx.")
        #expect(listener.connections() == 0, "the external entity was fetched")
        // The listener does see a connection: this test would catch a fetch.
        listener.connectOnce()
        #expect(listener.connections() == 1)
    }

    /// Entities that expand a thousandfold ("billion laughs") are refused the same way, not expanded.
    @Test func expandingEntitiesAreRefused() throws {
        let laughs =
            "<!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\">"
            + (1...6).map {
                "<!ENTITY \(Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0)))) \""
                    + String(repeating: "&\(Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 - 1))));", count: 10)
                    + "\">"
            }.joined() + "]>"
        let rows = Self.inlineRow(1, ["Tag"]) + "<row r=\"2\"><c t=\"inlineStr\"><is><t>&g;</t></is></c></row>"
        var parts = Self.workbookParts([("Sheet1", false, rows)])
        parts[2].1 = laughs + parts[2].1
        #expect(parts[2].0 == "xl/worksheets/sheet1.xml")
        let path = try writeWorkbook(parts, to: "scans.xlsx")
        #expect(
            refusal(ofSighting: path)?.description
                == "\(path): the workbook part xl/worksheets/sheet1.xml declares XML entities, which stocktake refuses "
                + "to read (they can hide or fetch content). Open the workbook in Excel and save it again as .xlsx.")
    }

    // MARK: Hostile files

    /// The copy, in the test folder, of a file of `HostileInputs/` (kept beside this file for the fuzzing step).
    func hostileInput(_ name: String) throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("HostileInputs").appendingPathComponent(name)
        return folder.write(Array(try Data(contentsOf: source)), to: name)
    }

    @Test func aSheetWithNULBytesIsRefusedAsBinary() throws {
        let path = try hostileInput("nul-bytes.csv")
        #expect(
            refusal(ofSighting: path)?.description
                == "\(path): line 3 holds a NUL byte, so the file is binary, not a sheet saved as text, and it is not "
                + "read. Check that it is the spreadsheet you meant and save it as \"CSV UTF-8\".")
    }

    @Test func randomBytesNamedCSVAreRefusedAsBinary() throws {
        let path = try hostileInput("random-bytes.csv")
        #expect(
            refusal(ofSighting: path)?.description
                == "\(path): line 4 holds a NUL byte, so the file is binary, not a sheet saved as text, and it is not "
                + "read. Check that it is the spreadsheet you meant and save it as \"CSV UTF-8\".")
    }

    @Test func anHTMLPageWhereASheetWasExpectedIsRefused() throws {
        let path = try hostileInput("sign-in-page.csv")
        #expect(
            refusal(ofSighting: path)?.description
                == "\(path): the file is a web page (HTML), not a spreadsheet, so it is not read; it may be a sign-in "
                + "or error page saved in the sheet's place. Download the sheet again as \"CSV UTF-8\" or .xlsx.")
    }

    @Test func aCellPastTheLimitInAWorkbookIsRefusedNamingTheCell() throws {
        let long = String(repeating: "x", count: 1025)
        let rows =
            Self.inlineRow(1, ["Tag", "Model"]) + Self.inlineRow(2, ["1", "AP"]) + Self.inlineRow(3, ["2", long])
        let path = try writeWorkbook(Self.workbookParts([("Sheet1", false, rows)]), to: "scans.xlsx")
        let central = folder.write("VT Tag\n000001\n", to: "central.csv")
        var request = request(central: central)
        request.sightings = [SourceEntry(path)]
        request.rules.limits.maxFieldBytes = 1024
        let error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request, log: quiet) }
        #expect(
            error?.description
                == "\(path): the text of cell B3 of xl/worksheets/sheet1.xml is longer than 1024 bytes, so the "
                + "workbook is not read. Check that it is the spreadsheet you meant; if the cell is real, raise "
                + "rules.maxFieldBytes in the account's account.json.")
        #expect(error?.exitStatus == .dataError)
    }

    /// Cells without a reference each take the next column: a row of 16,385 of them is refused, not padded.
    @Test func aWorkbookRowPastExcelsLastColumnIsRefused() throws {
        let cells = String(repeating: "<c t=\"inlineStr\"><is><t>1</t></is></c>", count: 16_385)
        let rows = Self.inlineRow(1, ["Tag"]) + "<row r=\"2\">\(cells)</row>"
        let path = try writeWorkbook(Self.workbookParts([("Sheet1", false, rows)]), to: "scans.xlsx")
        #expect(
            refusal(ofSighting: path)?.description
                == "\(path): row 2 of xl/worksheets/sheet1.xml has more than 16384 cells, more than a spreadsheet can "
                + "hold, so the workbook is not read. Open it in Excel, check the row and save it again.")
    }

    @Test func moreRowsThanTheLimitAreRefusedPerSourceAndPerAccount() throws {
        let central = folder.write("VT Tag\n000001\n000002\n", to: "central.csv")
        let scans = folder.write("Tag\n1\n2\n3\n", to: "scans.csv")
        var request = request(central: central)
        request.sightings = [SourceEntry(scans)]
        request.rules.limits.maxRows = 3
        // Three rows in each file, five in all: the account's limit.
        var error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request, log: quiet) }
        #expect(
            error?.description
                == "\(scans): with this file the sources of account test hold more than 3 rows in all, so the "
                + "account is not reconciled. Check that its sources are the spreadsheets you meant; if they are, "
                + "raise rules.maxRows in its account.json (and rules.maxMemoryMB with it)."
                || error?.description
                    == "\(central): with this file the sources of account test hold more than 3 rows in all, so the "
                    + "account is not reconciled. Check that its sources are the spreadsheets you meant; if they are, "
                    + "raise rules.maxRows in its account.json (and rules.maxMemoryMB with it)."
        )
        #expect(error?.exitStatus == .dataError)
        request.rules.limits.maxRows = 2
        error = #expect(throws: StocktakeError.self) { try ReconcileJob.run(request, log: quiet) }
        #expect(
            error?.description
                == "\(scans): the file has more than 2 rows, so it is not read. Check that it is the spreadsheet you "
                + "meant; if it is, raise rules.maxRows in the account's account.json (and rules.maxMemoryMB with it).")
        request.rules.limits.maxRows = 5
        #expect(try ReconcileJob.run(request, log: quiet).0.assets.count == 3)
        #expect(folder.list().contains("out"))
    }
}

/// A TCP socket listening on 127.0.0.1 at a port of the system's choosing, which never accepts: a connection to it
/// completes in the kernel's backlog, where `connections()` counts it.
final class LoopbackListener {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard descriptor >= 0, bound else {
            close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(descriptor)
    }

    /// Connects to the port and closes the connection, as a fetch of the entity would.
    func connectOnce() {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    /// How many connections came since the last call (accepting and closing them).
    func connections() -> Int {
        var count = 0
        while true {
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return count }
            close(connection)
            count += 1
        }
    }
}
