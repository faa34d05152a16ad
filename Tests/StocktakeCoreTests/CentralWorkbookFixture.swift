import Foundation
import Testing

@testable import StocktakeCore

/// A central sheet that is an `.xlsx` workbook, reconciled with CSV sightings held in memory: the fixture of the
/// workbook write-back tests. Workbooks are made at test time, by openpyxl or XlsxWriter (real producers, with
/// styles, comments, formulas and a second sheet) or from hand-written XML parts (`TestZip`), for worksheets no
/// producer writes.
struct CentralWorkbookFixture {
    var workbook: [UInt8]
    var sightings: [(name: String, text: String)] = []
    var sheet: String?
    var rules = ReconciliationRules(asOf: InventoryDate(year: 2026, month: 11, day: 20)!)
    static let fileName = "central.xlsx"

    init(workbook: [UInt8]) {
        self.workbook = workbook
    }

    mutating func sighting(_ name: String, _ text: String) {
        sightings.append((name, text))
    }

    var reader: SourceReader {
        SourceReader(mapping: .builtIn, tagDigits: rules.tagDigits, cnsDigits: rules.cnsDigits)
    }

    /// The reconciliation of the night with `central` (the fixture's workbook unless given) as the central sheet.
    func reconcile(central: [UInt8]? = nil) throws -> Reconciliation {
        var sources = [
            try reader.read(
                SourceFile(path: Self.fileName, role: .central, sheet: sheet), bytes: central ?? workbook,
                name: Self.fileName)
        ]
        for sighting in sightings {
            var csv = CSVReader(bytes: Array(sighting.text.utf8), name: sighting.name)
            sources.append(try reader.read(SourceFile(path: sighting.name, role: .sighting), from: &csv))
        }
        return Reconciler(rules: rules).reconcile(sources)
    }

    /// The plan of the night with `central` (the fixture's workbook unless given) as the central sheet.
    func plan(_ options: WriteBackOptions = WriteBackOptions(), central: [UInt8]? = nil) throws -> WriteBackPlan {
        try WriteBackPlan(
            workbook: central ?? workbook, fileName: Self.fileName, sheet: sheet, reader: reader,
            reconciliation: try reconcile(central: central), options: options)
    }

    // MARK: Workbooks made at test time

    /// Runs the python3 `script`, which writes the workbook `out.xlsx` in the current folder, and returns its bytes.
    static func python(_ script: String, in folder: TemporaryFolder) throws -> [UInt8] {
        try pythonZip(script, output: "out.xlsx", in: folder)
    }

    /// A workbook with hand-written parts: `sheet` is the worksheet's XML, `sharedStrings` the `sst` element's
    /// items when there is a shared strings part. Every entry deflated, as Excel writes them.
    static func handWritten(sheet: String, sharedStrings: String? = nil, extra: [(String, String)] = []) -> [UInt8] {
        var parts: [(String, String)] = [
            ("[Content_Types].xml", "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>"),
            ("_rels/.rels", WorkbookTests.rootRelationships),
            (
                "xl/workbook.xml",
                "<workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" "
                    + "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">"
                    + "<sheets><sheet name=\"Assets\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"
            ),
            (
                "xl/_rels/workbook.xml.rels",
                WorkbookTests.relationships(
                    [("rId1", "worksheet", "worksheets/sheet1.xml")]
                        + (sharedStrings == nil ? [] : [("rId2", "sharedStrings", "sharedStrings.xml")]))
            ),
            ("xl/worksheets/sheet1.xml", sheet),
        ]
        if let sharedStrings {
            parts.append(
                (
                    "xl/sharedStrings.xml",
                    "<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">\(sharedStrings)</sst>"
                ))
        }
        return TestZip.build((parts + extra).map { TestZipEntry($0.0, $0.1) })
    }

    // MARK: Reading a workbook back

    /// The stored records (local header, compressed data, descriptor) of every entry, by name, in order.
    static func storedRecords(_ bytes: [UInt8]) throws -> [(name: String, record: [UInt8])] {
        let archive = try ZipArchive(bytes: bytes, name: fileName)
        return archive.entries.map { ($0.name, Array(archive.storedRecord(of: $0))) }
    }

    /// The inflated contents of the entry `name`.
    static func part(_ name: String, of bytes: [UInt8]) throws -> String {
        let archive = try ZipArchive(bytes: bytes, name: fileName)
        let entry = try #require(archive.entry(named: name))
        return String(decoding: try archive.contents(of: entry), as: UTF8.self)
    }

    /// What openpyxl reads from each sheet of a workbook: its title, and every row as cells written "TYPE VALUE":
    /// `s` text, `n` number, `f` formula (its text), `d` date; an empty cell is "".
    static let openpyxlCells = """
        import sys, json, openpyxl
        book = openpyxl.load_workbook(sys.argv[1])
        def cell(c):
            if c.value is None: return ""
            return c.data_type + " " + str(c.value)
        print(json.dumps({s.title: [[cell(c) for c in row] for row in s.iter_rows()] for s in book.worksheets}))
        """

    /// The cells of every sheet of the workbook `bytes` as openpyxl reads them (see `openpyxlCells`).
    static func openpyxlCells(_ bytes: [UInt8], in folder: TemporaryFolder) throws -> [String: [[String]]] {
        let path = folder.write(bytes, to: "read-\(UUID().uuidString).xlsx")
        let result = WorkbookTools.python(openpyxlCells, [path])
        guard result.status == 0 else { throw WorkbookTools.OpenpyxlFailure(output: result.output) }
        return try JSONDecoder().decode([String: [[String]]].self, from: Data(result.output.utf8))
    }

    /// The CSV LibreOffice makes of the workbook `bytes` (its first sheet), or what it said when it made none.
    static func libreOfficeCSV(_ bytes: [UInt8], in folder: TemporaryFolder) -> String {
        let path = folder.write(bytes, to: "pushed.xlsx")
        return WorkbookTools.libreOfficeCSV(path, folder: folder.path)
    }
}
