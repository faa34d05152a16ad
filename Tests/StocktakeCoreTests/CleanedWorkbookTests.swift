import Foundation
import Testing

@testable import StocktakeCore

@Suite("CleanedWorkbook: cleaned.xlsx")
struct CleanedWorkbookTests {
    let folder = TemporaryFolder()

    @Test func theColumnsAreThoseOfCleanedCSV() {
        #expect(CleanedWorkbook.columns.map(\.name) == CleanedTable.columns)
    }

    @Test(.enabled(if: WorkbookTools.hasOpenpyxl, "python3-openpyxl is not installed"))
    func openpyxlReadsTextIdentifiersNumbersAndDates() throws {
        var reconciliation = OutputFixture.reconciliation
        reconciliation.assets[0].values.cost = UnitCost(cents: 89_550)
        reconciliation.buildings = BuildingTable([Building(code: "BUR", name: "Burruss Hall")])
        let path = folder.write(CleanedWorkbook.bytes(reconciliation), to: "cleaned.xlsx")
        let sheets = try WorkbookTools.openpyxl(path)
        #expect(sheets.map(\.title) == ["cleaned"])
        let sheet = try #require(sheets.first)
        #expect(sheet.freeze == "A2")
        #expect(sheet.filter == "A1:S5")
        #expect(sheet.bold == Array(repeating: true, count: 19))
        #expect(sheet.rows == [CleanedTable.columns] + Self.fixtureRows)
    }

    /// The rows of the fixture (with a cost and a building name) as openpyxl reads them: numbers as "number 12.5",
    /// dates as "date 2026-03-05 yyyy-mm-dd" (with their number format).
    static let fixtureRows = [
        [
            "004512", "C000123", "CNF123", "aa:bb:cc:dd:ee:01", "AP-515", "=SUM(A1)", "BUR", "101", "ceiling",
            "Doe, Jane", "number 37.2296", "number -80.4139", "date 2026-03-05 yyyy-mm-dd", "S-1",
            "number 895.5 0.00", "ok", "central.csv; survey.csv", "Burruss Hall", "M7JM-T6YR",
        ],
        [
            "004513", "C000124", "", "", "AP-515", "-48V PoE", "BUR", "102", "wall", "", "", "", "", "", "",
            "missing", "central.csv", "Burruss Hall", "4ET3-T8AG",
        ],
        [
            "004600", "", "", "", "", "", "BUR", "", "", "", "", "", "", "", "", "typo", "central.csv",
            "Burruss Hall", "XVDR-MPCA",
        ],
        [
            "770001", "", "", "", "", "", "", "", "", "@jdoe", "", "", "date 2026-02-02 yyyy-mm-dd", "", "",
            "unrecorded", "survey.csv", "", "BD9A-E7S9",
        ],
    ]

    /// The fixture's workbook: its first row fills every column, so none of its cells names its column; the cells of
    /// the others do after an empty one. The texts that repeat are shared strings.
    @Test(.enabled(if: WorkbookTools.hasPython, "python3 is not installed"))
    func cellsNameTheirColumnOnlyAfterAnEmptyOneAndRepeatedTextsAreShared() throws {
        var reconciliation = OutputFixture.reconciliation
        reconciliation.assets[0].values.cost = UnitCost(cents: 89_550)
        reconciliation.buildings = BuildingTable([Building(code: "BUR", name: "Burruss Hall")])
        let path = folder.write(CleanedWorkbook.bytes(reconciliation), to: "cleaned.xlsx")
        let read = WorkbookTools.python(
            "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); sys.stdout.write("
                + "z.read('xl/worksheets/sheet1.xml').decode() + '\\n' + z.read('xl/sharedStrings.xml').decode())",
            [path])
        #expect(read.status == 0)
        let parts = read.output.split(separator: "\n").map(String.init)
        let sheet = parts[1]
        let firstRow = try #require(sheet.range(of: "<row r=\"2\">")).upperBound
        let firstRowEnd = try #require(sheet.range(of: "</row>", range: firstRow..<sheet.endIndex)).lowerBound
        #expect(!sheet[firstRow..<firstRowEnd].contains("r=\""))
        #expect(sheet[firstRow..<firstRowEnd].hasPrefix("<c s=\"3\" t=\"inlineStr\"><is><t>004512</t></is></c>"))
        #expect(
            sheet.contains("<row r=\"4\"><c s=\"3\" t=\"inlineStr\"><is><t>004600</t></is></c><c r=\"G4\" t=\"s\">"))
        let texts = [
            "AP-515", "=SUM(A1)", "BUR", "101", "ceiling", "Doe, Jane", "S-1", "ok", "central.csv; survey.csv",
            "Burruss Hall", "-48V PoE", "102", "wall", "missing", "central.csv", "typo", "@jdoe", "unrecorded",
            "survey.csv",
        ]
        let items = texts.map { "<si><t>" + $0 + "</t></si>" }.joined()
        #expect(parts[3].hasSuffix("count=\"25\" uniqueCount=\"19\">" + items + "</sst>"))
    }

    /// Our own reader (which reads central sheets from any producer) reads the workbook without cell references
    /// back to the rows of cleaned.csv: numbers and dates as a CSV saved by Excel holds them, no formula guard.
    @Test func ourReaderReadsTheFixtureBackToTheRowsOfCleanedCSV() throws {
        var reconciliation = OutputFixture.reconciliation
        reconciliation.assets[0].values.cost = UnitCost(cents: 89_550)
        reconciliation.buildings = BuildingTable([Building(code: "BUR", name: "Burruss Hall")])
        let workbook = try Workbook(bytes: CleanedWorkbook.bytes(reconciliation), name: "cleaned.xlsx")
        var rows: [[String]] = []
        try workbook.forEachRecord { record in rows.append((0..<record.count).map { record.string(at: $0) }) }
        let expected = Self.fixtureRows.map { row in
            row.map { cell in
                let words = cell.split(separator: " ")
                return words.first == "number" || words.first == "date" ? String(words[1]) : cell
            }
        }
        #expect(rows == [CleanedTable.columns] + expected)
    }

    /// 20,000 assets whose tags mostly have leading zeros (000072), over several blocks of rows.
    static var manyAssets: Reconciliation {
        let assets = (0..<20_000).map { index in
            var values = AssetValues()
            values.vtTag = VTTag(number: UInt64(index * 7 % 100_000), digits: 6)
            values.description = index % 3 == 0 ? "=cmd|' /C calc'!A0" : "AP \(index)"
            values.lastSeen = InventoryDate(year: 2026, month: 1, day: 1)!.adding(days: index % 300)
            return CleanedAsset(values: values, status: .ok, sources: ["central.csv"])
        }
        return Reconciliation(assets: assets, discrepancies: [], inputs: [], asOf: OutputFixture.asOf)
    }

    @Test(.enabled(if: WorkbookTools.hasOpenpyxl, "python3-openpyxl is not installed"))
    func everyTagOfAManyBlockSheetIsSixDigitTextInOpenpyxl() throws {
        let reconciliation = Self.manyAssets
        let path = folder.path("cleaned.xlsx")
        try PieceWriter.write([
            CleanedWorkbook.writer(CleanedTexts(reconciliation), to: path)
        ])
        let rows = try #require(try WorkbookTools.openpyxl(path).first).rows.dropFirst()
        #expect(rows.map { $0[0] } == reconciliation.assets.map { $0.values.vtTag!.description })
        #expect(rows.allSatisfy { $0[0].count == 6 && $0[0].allSatisfy(\.isASCII) })
        #expect(rows.map { $0[5] } == reconciliation.assets.map { $0.values.description! })
        #expect(rows[1][12] == "date 2026-01-01 yyyy-mm-dd")
    }

    @Test(.enabled(if: WorkbookTools.hasLibreOffice, "LibreOffice (soffice) is not installed"))
    func libreOfficeKeepsEveryTagAsSixDigitTextAndShowsNoGuard() throws {
        let reconciliation = Self.manyAssets
        let path = folder.path("cleaned.xlsx")
        try PieceWriter.write([
            CleanedWorkbook.writer(CleanedTexts(reconciliation), to: path)
        ])
        let csv = WorkbookTools.libreOfficeCSV(path, folder: folder.path)
        let lines = csv.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.first == Substring(CleanedTable.columns.joined(separator: ",")))
        let tags = lines.dropFirst().map { String($0.prefix { $0 != "," }) }
        #expect(tags == reconciliation.assets.map { $0.values.vtTag!.description })
        #expect(tags.contains("000072"))
        #expect(lines[1] == "000000,,,,,=cmd|' /C calc'!A0,,,,,,,2026-01-01,,,ok,central.csv,,")
        #expect(lines[2] == "000007,,,,,AP 1,,,,,,,2026-01-02,,,ok,central.csv,,")
    }

    @Test(.enabled(if: WorkbookTools.hasLibreOffice, "LibreOffice (soffice) is not installed"))
    func libreOfficeConvertsTheFixtureToTheRowsOfCleanedCSVWithoutTheGuard() throws {
        var reconciliation = OutputFixture.reconciliation
        reconciliation.assets[0].values.cost = UnitCost(cents: 89_550)
        reconciliation.buildings = BuildingTable([Building(code: "BUR", name: "Burruss Hall")])
        let path = folder.write(CleanedWorkbook.bytes(reconciliation), to: "cleaned.xlsx")
        let csv = WorkbookTools.libreOfficeCSV(path, folder: folder.path)
        // The cost is the number 895.5 in the workbook (shown 895.50 by its format); the CSV LibreOffice writes
        // holds the number.
        let expected = String(decoding: CleanedTable.csv(reconciliation), as: UTF8.self)
            .replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: ",'", with: ",")
            .replacingOccurrences(of: ",895.50,", with: ",895.5,")
        #expect(csv == expected)
    }
}
