import Foundation
import Testing

@testable import StocktakeCore

struct WorkbookTests {
    static let calamineFolder = "/work/shared/testdata/xlsx-calamine"
    static let hasCalamine = FileManager.default.fileExists(atPath: calamineFolder + "/date.xlsx")

    /// A python3 script that writes `out.zip`, a workbook made of `parts` (name → XML text).
    static func workbookScript(_ parts: [(String, String)]) -> String {
        let entries = parts.map { name, text in
            "    z.writestr(\(pythonString(name)).decode(), \(pythonString(text)))"
        }
        return "import zipfile\nwith zipfile.ZipFile('out.zip', 'w', zipfile.ZIP_DEFLATED) as z:\n"
            + entries.joined(separator: "\n") + "\n"
    }

    static func pythonString(_ text: String) -> String {
        "bytes.fromhex('\(text.utf8.map { String(format: "%02x", $0) }.joined())')"
    }

    static let rootRelationships = """
        <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
        <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" \
        Target="xl/workbook.xml"/></Relationships>
        """

    static func relationships(_ items: [(id: String, type: String, target: String)]) -> String {
        "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
            + items.map {
                "<Relationship Id=\"\($0.id)\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/"
                    + "relationships/\($0.type)\" Target=\"\($0.target)\"/>"
            }.joined() + "</Relationships>"
    }

    static func sheetXML(_ rows: String) -> String {
        "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>\(rows)"
            + "</sheetData></worksheet>"
    }

    /// A workbook with a visible sheet "Assets", a hidden one "Old", a chart sheet and a 1904 date.
    static func sampleParts(workbookPrefix: String = "") -> [(String, String)] {
        [
            ("_rels/.rels", rootRelationships),
            (
                "xl/workbook.xml",
                workbookPrefix + """
                    <workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
                    xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">\
                    <workbookPr date1904="1"/><sheets><sheet name="Old" sheetId="1" state="hidden" r:id="rId1"/>\
                    <sheet name="Chart" sheetId="2" r:id="rId2"/><sheet name="Assets &amp; tags" sheetId="3" r:id="rId3"/>\
                    </sheets></workbook>
                    """
            ),
            (
                "xl/_rels/workbook.xml.rels",
                relationships([
                    ("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId2", "chartsheet", "chartsheets/sheet1.xml"),
                    ("rId3", "worksheet", "/xl/worksheets/../worksheets/sheet2.xml"),
                    ("rId4", "sharedStrings", "sharedStrings.xml"), ("rId5", "styles", "styles.xml"),
                ])
            ),
            ("xl/worksheets/sheet1.xml", sheetXML("<row r=\"1\"><c t=\"s\"><v>0</v></c></row>")),
            (
                "xl/worksheets/sheet2.xml",
                sheetXML("<row r=\"2\"><c r=\"B2\" t=\"s\"><v>1</v></c><c r=\"C2\" s=\"1\"><v>43830</v></c></row>")
            ),
            ("xl/sharedStrings.xml", "<sst><si><t>old</t></si><si><t>VT-012976</t></si></sst>"),
            ("xl/styles.xml", "<styleSheet><cellXfs><xf/><xf numFmtId=\"14\"/></cellXfs></styleSheet>"),
        ]
    }

    static func workbook(_ parts: [(String, String)], in folder: TemporaryFolder) throws -> Workbook {
        let bytes = try pythonZip(workbookScript(parts), in: folder)
        return try Workbook(bytes: bytes, name: "assets.xlsx")
    }

    static func rows(_ workbook: Workbook, _ sheet: WorkbookSheet) throws -> [[String]] {
        var rows: [[String]] = []
        try workbook.forEachRecord(in: sheet) { rows.append([String($0.line)] + $0.strings) }
        return rows
    }

    static func workbookError(_ body: () throws -> Void) -> WorkbookError? {
        do {
            try body()
            return nil
        } catch let error as WorkbookError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func listsWorksheetsAndReadsTheFirstVisibleOne() throws {
        let folder = TemporaryFolder()
        let workbook = try Self.workbook(Self.sampleParts(), in: folder)
        #expect(
            workbook.sheets == [
                WorkbookSheet(name: "Old", isHidden: true, part: "xl/worksheets/sheet1.xml"),
                WorkbookSheet(name: "Assets & tags", isHidden: false, part: "xl/worksheets/sheet2.xml"),
            ])
        #expect(workbook.usesDate1904)
        #expect(workbook.defaultSheet.name == "Assets & tags")
        var rows: [[String]] = []
        try workbook.forEachRecord { rows.append([String($0.line)] + $0.strings) }
        #expect(rows == [["2", "", "VT-012976", "2024-01-01"]])
        #expect(try Self.rows(workbook, workbook.sheet(named: "old")) == [["1", "old"]])
    }

    @Test func refusesASheetThatDoesNotExistListingTheSheets() throws {
        let folder = TemporaryFolder()
        let workbook = try Self.workbook(Self.sampleParts(), in: folder)
        let error = Self.workbookError { try workbook.forEachRecord(inSheet: "Chart") { _ in } }
        #expect(
            error?.description
                == "assets.xlsx: the workbook has no sheet named \"Chart\"; its sheets are \"Old\", \"Assets & tags\". "
                + "Check the sheet's name where it is given (the account's sources, --central-sheet or --sheet).")
    }

    @Test func refusesAMissingSheetPart() throws {
        let folder = TemporaryFolder()
        let parts = Self.sampleParts().filter { $0.0 != "xl/worksheets/sheet2.xml" }
        let workbook = try Self.workbook(parts, in: folder)
        let error = Self.workbookError { try workbook.forEachRecord { _ in Issue.record("a row was delivered") } }
        #expect(
            error?.description
                == "assets.xlsx: the workbook part xl/worksheets/sheet2.xml is missing, so the workbook is damaged. "
                + "Open the workbook in Excel and save it again, or save it as CSV UTF-8.")
    }

    @Test func refusesEntityDeclarationsInTheWorkbookPart() throws {
        let folder = TemporaryFolder()
        let parts = Self.sampleParts(
            workbookPrefix: "<!DOCTYPE workbook [<!ENTITY x SYSTEM \"http://127.0.0.1:9/evil\">]>")
        let error = Self.workbookError { _ = try Self.workbook(parts, in: folder) }
        #expect(
            error?.description
                == "assets.xlsx: the workbook part xl/workbook.xml declares XML entities, which stocktake refuses to "
                + "read (they can hide or fetch content). Open the workbook in Excel and save it again as .xlsx.")
    }

    @Test func refusesDamagedSharedStrings() throws {
        let folder = TemporaryFolder()
        let parts = Self.sampleParts().map { $0.0 == "xl/sharedStrings.xml" ? ($0.0, "<sst><si><t>cut") : $0 }
        let error = Self.workbookError { _ = try Self.workbook(parts, in: folder) }
        #expect(
            error?.description
                == "assets.xlsx: the workbook part xl/sharedStrings.xml is damaged: it ends in the middle of its XML "
                + "(the file may be truncated). Open the workbook in Excel and save it again, or save it as CSV UTF-8.")
    }

    @Test func refusesAPackageWithoutAWorksheet() throws {
        let folder = TemporaryFolder()
        let parts = Self.sampleParts().filter { !$0.0.hasPrefix("xl/_rels/") }
        let error = Self.workbookError { _ = try Self.workbook(parts, in: folder) }
        #expect(
            error?.description
                == "assets.xlsx: the workbook has no worksheet to read. "
                + "Open it in Excel, check that it holds a sheet of rows, and save it again.")
        let noWorkbook = Self.workbookError {
            _ = try Self.workbook([("docProps/app.xml", "<Properties/>")], in: folder)
        }
        #expect(noWorkbook == .noWorksheet(file: "assets.xlsx"))
    }

    @Test func refusesACompoundDocumentAsEncryptedOrOld() {
        let ole2: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + Array(repeating: 0, count: 504)
        let error = Self.workbookError { _ = try Workbook(bytes: ole2, name: "assets.xlsx") }
        #expect(
            error?.description
                == "assets.xlsx is encrypted or password-protected, or is an old .xls workbook: open it in Excel and "
                + "save it as an unprotected .xlsx (or as CSV UTF-8).")
        let text = Self.workbookError { _ = try Workbook(bytes: Array("tag,building\n".utf8), name: "assets.xlsx") }
        #expect(text == .archive(.notZip(file: "assets.xlsx", kind: .text)))
    }

    @Test func resolvesRelationshipTargets() {
        #expect(PackageReader.resolve("worksheets/sheet1.xml", from: "xl/") == "xl/worksheets/sheet1.xml")
        #expect(PackageReader.resolve("/xl/styles.xml", from: "xl/") == "xl/styles.xml")
        #expect(PackageReader.resolve("../media/a.png", from: "xl/drawings/") == "xl/media/a.png")
        #expect(PackageReader.resolve("./sheet1.xml", from: "") == "sheet1.xml")
        #expect(PackageReader.split("xl/workbook.xml") == ("xl/", "workbook.xml"))
        #expect(PackageReader.split("workbook.xml") == ("", "workbook.xml"))
    }

    /// The first sheet of each workbook of calamine's test suite, as openpyxl reads it: sheet names, hidden states
    /// and rows (line and cell texts, trailing empty cells removed), with numbers, dates and booleans written as
    /// `WorksheetReader` writes them.
    static func openpyxlReading() throws -> [String: Any] {
        let script = """
            import sys, json, os, datetime, decimal, warnings
            warnings.simplefilter("ignore")
            import openpyxl
            def number(v):
                if isinstance(v, bool): return "TRUE" if v else "FALSE"
                if isinstance(v, int): return str(v)
                if v == int(v) and abs(v) <= 2**53: return str(int(v))
                r = repr(v)
                if 'e' in r and -8 < int(r.split('e')[1]) < 22: return format(decimal.Decimal(r), 'f')
                return r
            def text(v):
                if v is None: return ""
                if isinstance(v, (bool, int, float)): return number(v)
                if isinstance(v, datetime.datetime):
                    return v.strftime("%Y-%m-%d" if v.time() == datetime.time(0) else "%Y-%m-%dT%H:%M:%S")
                if isinstance(v, datetime.date): return v.isoformat()
                if isinstance(v, datetime.time): return v.strftime("%H:%M:%S")
                return str(v)
            result = {}
            folder = sys.argv[1]
            for name in sorted(os.listdir(folder)):
                if not name.endswith(".xlsx"): continue
                try:
                    book = openpyxl.load_workbook(os.path.join(folder, name), data_only=True)
                except Exception as error:
                    result[name] = {"error": type(error).__name__}
                    continue
                sheets = book.worksheets
                entry = {"sheets": [s.title for s in sheets], "hidden": [s.sheet_state != "visible" for s in sheets]}
                rows = []
                for index, row in enumerate(sheets[0].iter_rows(values_only=True) if sheets else []):
                    cells = [text(v) for v in row]
                    while cells and cells[-1] == "": cells.pop()
                    if cells: rows.append([str(index + 1)] + cells)
                entry["rows"] = rows
                result[name] = entry
            json.dump(result, sys.stdout, ensure_ascii=False)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, calamineFolder]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// What stocktake reads where openpyxl 3.0.9 does not read the workbook, or reads it wrongly.
    static let pinnedReadings: [String: [[String]]] = [
        // openpyxl 3.0.9 leaves Excel's _x000D_ escapes as they are; Excel shows a carriage return.
        "has_x000D_.xlsx": [["1", "ABC\r\nDEF"]],
        "has_x000D_inline.xlsx": [["1", "ABC\r\nDEF"]],
        // A3 is a duration ([h]:mm:ss), which openpyxl shows as "10 days, 15:10:10"; it is not a date, so its number.
        "date.xlsx": [["1", "2021-01-01", "15"], ["2", "2021-01-02", "16"], ["3", "10.6320601851852", "17"]],
        "date_1904.xlsx": [["1", "2021-01-01", "15"], ["2", "2021-01-02", "16"], ["3", "10.6320601851852", "17"]],
    ]

    @Test(.enabled(if: hasCalamine)) func readsEveryCalamineWorkbookLikeOpenpyxl() throws {
        let expected = try Self.openpyxlReading()
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.calamineFolder).filter {
            $0.hasSuffix(".xlsx")
        }
        #expect(names.count == 32)
        var compared = 0
        for name in names.sorted() {
            guard let entry = expected[name] as? [String: Any], entry["error"] == nil,
                let sheetNames = entry["sheets"] as? [String], !sheetNames.isEmpty
            else { continue }
            let workbook = try Workbook(path: Self.calamineFolder + "/" + name, name: name)
            var rows = try Self.rows(workbook, workbook.sheets[0])
            for index in rows.indices {
                while rows[index].count > 1 && rows[index].last == "" { rows[index].removeLast() }
            }
            #expect(workbook.sheets.map(\.name) == sheetNames, "\(name)")
            #expect(workbook.sheets.map(\.isHidden) == entry["hidden"] as? [Bool], "\(name)")
            #expect(rows == Self.pinnedReadings[name] ?? entry["rows"] as? [[String]], "\(name)")
            compared += 1
        }
        #expect(compared == 28)
    }

    /// The workbooks openpyxl 3.0.9 cannot read (or reads as empty), with what stocktake reads from them.
    @Test(.enabled(if: hasCalamine)) func readsTheCalamineWorkbooksOpenpyxlCannot() throws {
        func rows(_ name: String) throws -> (Workbook, [[String]]) {
            let workbook = try Workbook(path: Self.calamineFolder + "/" + name, name: name)
            return (workbook, try Self.rows(workbook, workbook.defaultSheet))
        }
        // Parts at the package's root, not under xl/, and rows of inline strings mixing a t with rich-text runs.
        let (minimal, minimalRows) = try rows("minimal_package.xlsx")
        #expect(minimal.sheets == [WorkbookSheet(name: "Sheet1", isHidden: false, part: "sheet1.xml")])
        #expect(minimalRows.count == 196)
        #expect(minimalRows.first == ["1", "ARREST BOOKINGS for 01/30/17"])
        #expect(
            minimalRows.last?.prefix(8) == [
                "196", "4895730", "01/30/17", "23:55", "4219", "        PARTHENIA", "  COLUMBUS", " ",
            ])
        // Strict OOXML: purl.oclc.org namespaces and relationship types.
        let (strict, strictRows) = try rows("strict_iso_paths.xlsx")
        #expect(strict.sheets.map(\.name) == ["ml_out"])
        #expect(strictRows.count == 76 && strictRows.allSatisfy { $0.count == 19 })
        #expect(strictRows[0].prefix(3) == ["1", "Item", "Thickness"])
        #expect(strictRows[0].last == "GoldenRun")
        #expect(
            strictRows[1].prefix(11) == [
                "2", "150-031260-001_B", "1.5", "7", "4", "5", "2", "78.46", "2153.93", "1516.12", "1051527.3933333333",
            ])
        // The relationship names sharedStrings.xml; the ZIP file holds xl/SharedStrings.xml.
        let (_, caseRows) = try rows("issue_419.xlsx")
        #expect(caseRows == [["1", "Hello"]])
        // Excel's "encrypt with password" makes a compound document of the workbook.
        let error = Self.workbookError { _ = try Workbook(path: Self.calamineFolder + "/pass_protected.xlsx") }
        #expect(
            error?.description
                == "pass_protected.xlsx is encrypted or password-protected, or is "
                + "an old .xls workbook: open it in Excel and save it as an unprotected .xlsx (or as CSV UTF-8).")
    }
}
