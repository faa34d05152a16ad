import Foundation
import StocktakeCore
import Testing

/// Issue 11: the sample account's sheets saved as workbooks by real producers — LibreOffice, openpyxl and
/// XlsxWriter, made at test time — reconcile to exactly the findings and cleaned table of the CSV version.
///
/// LibreOffice imports every column as text (the way a clerk imports a CSV so that `000072` and a MAC such as
/// `186472975E13` survive); openpyxl and XlsxWriter store what a clerk's own workbook holds: numbers as number cells
/// (tags, rooms, MACs of digits, coordinates) and last-seen dates as date cells, so these runs go through the
/// reader's number and date texts.
@Suite("Acceptance: the sample account as LibreOffice, openpyxl and XlsxWriter workbooks reconciles like its CSVs")
struct WorkbookProducerTests {
    static let sample = AcceptanceTests.repository.appendingPathComponent("samples/vt-nis")

    /// Whether python3 can import xlsxwriter (Debian's python3-xlsxwriter).
    static let hasXlsxWriter = WorkbookTools.python("import xlsxwriter").status == 0

    /// The sample's sheets, as paths inside the account (`central.csv`, `sightings/…`, `registers/…`).
    static func sheets() throws -> [String] {
        var sheets = ["central.csv"]
        for folder in ["sightings", "registers"] {
            let names = try FileManager.default.contentsOfDirectory(
                atPath: sample.appendingPathComponent(folder).path)
            sheets += names.sorted().map { folder + "/" + $0 }
        }
        return sheets
    }

    /// The name of a sheet's workbook: `x.csv` and `x.tsv` become `x.xlsx`.
    static func workbookName(_ path: String) -> String {
        (path as NSString).deletingPathExtension + ".xlsx"
    }

    /// Reconciles the account whose central sheet is `central` and whose sheets are in the folders `sightings`
    /// and `registers` of `folder`, with the sample's buildings, as `stocktake reconcile` would.
    static func reconcile(central: String, folder: URL, output: URL) throws -> Reconciliation {
        var rules = ReconciliationRules(asOf: InventoryDate(year: 2026, month: 11, day: 20)!)
        rules.staleAfterDays = 365
        var request = ReconcileRequest(
            account: "vt-nis", central: folder.appendingPathComponent(central).path, rules: rules,
            outputDirectory: output.path)
        request.sightings = [SourceEntry(folder.appendingPathComponent("sightings").path)]
        request.registers = [SourceEntry(folder.appendingPathComponent("registers").path)]
        request.buildings = sample.appendingPathComponent("buildings.csv").path
        return try ReconcileJob.run(request, log: Log(account: "test", isEnabled: false)).0
    }

    /// Checks that the workbook account in `folder` gives the findings and cleaned table of the CSV sample, once
    /// each sheet's name `x.csv` is read as `x.xlsx`.
    ///
    /// The mapping is needed because a finding names the files it rests on: the `sources` column and the message
    /// say `survey_zone6.xlsx row 465` where the CSV version says `survey_zone6.csv row 465`, and the finding's
    /// `id` is a hash of its key, which holds the file of a finding about one file's cell (`INVALID_VALUE`,
    /// `UNKNOWN_BUILDING`, `DUPLICATE_ROW`). So the CSV version's text has its file names replaced and each id
    /// recomputed from the key with the names replaced; everything else must be equal byte for byte.
    static func expectCSVFindings(workbooks folder: URL) throws {
        let root = folder.deletingLastPathComponent()
        let csvOutput = root.appendingPathComponent("csv-out")
        let reference = try reconcile(central: "central.csv", folder: sample, output: csvOutput)
        let output = folder.appendingPathComponent("out")
        let result = try reconcile(central: "central.xlsx", folder: folder, output: output)
        let names = try sheets().map { ($0 as NSString).lastPathComponent }
        #expect(
            result.inputs.map { ($0.file.path as NSString).lastPathComponent }.sorted()
                == names.map(workbookName).sorted())
        func mapped(_ text: String) -> String {
            names.reduce(text) { $0.replacingOccurrences(of: $1, with: workbookName($1)) }
        }
        var expected = mapped(
            try String(contentsOf: csvOutput.appendingPathComponent("discrepancies.csv"), encoding: .utf8))
        var renamed = 0
        // The findings column of cleaned.csv names the same ids.
        var cleanedExpected = mapped(
            try String(contentsOf: csvOutput.appendingPathComponent("cleaned.csv"), encoding: .utf8))
        for finding in reference.discrepancies {
            let key = FindingKey.key(of: finding)
            let old = FindingID(code: finding.code, key: key).description
            let new = FindingID(code: finding.code, key: mapped(key)).description
            guard old != new else { continue }
            #expect(expected.contains("," + old + ","), "\(old) \(key)")
            expected = expected.replacingOccurrences(of: "," + old + ",", with: "," + new + ",")
            cleanedExpected = cleanedExpected.replacingOccurrences(of: old, with: new)
            renamed += 1
        }
        #expect(renamed > 10)
        #expect(reference.discrepancies.count > 80 && result.discrepancies.count == reference.discrepancies.count)
        let discrepancies = try String(contentsOf: output.appendingPathComponent("discrepancies.csv"), encoding: .utf8)
        #expect(discrepancies == expected)
        let cleaned = try String(contentsOf: output.appendingPathComponent("cleaned.csv"), encoding: .utf8)
        #expect(cleaned == cleanedExpected)
        #expect(result.assets.count == reference.assets.count && result.assets.count > 2900)
    }

    @Test(.enabled(if: WorkbookTools.hasLibreOffice, "needs LibreOffice (soffice), which the Makefile installs"))
    func libreOfficeWorkbooks() throws {
        let root = try AcceptanceTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("xlsx")
        // Every column imported as text (format 2): `CSV:separator,quote,UTF-8,first line,column/format...`.
        let columns = (1...32).map { "\($0)/2" }.joined(separator: "/")
        let sheets = try Self.sheets()
        let groups = Dictionary(grouping: sheets) { path in
            (path as NSString).deletingLastPathComponent + (path.hasSuffix(".tsv") ? "|9" : "|44")
        }
        #expect(groups.count == 4)
        for (group, paths) in groups {
            let subfolder = String(group.prefix { $0 != "|" })
            let separator = String(group.drop { $0 != "|" }.dropFirst())
            let result = WorkbookTools.run(
                "/usr/bin/env",
                [
                    "soffice", "-env:UserInstallation=file://" + root.path + "/profile", "--headless",
                    "--infilter=CSV:\(separator),34,76,1,\(columns)", "--convert-to", "xlsx", "--outdir",
                    folder.appendingPathComponent(subfolder).path,
                ] + paths.map { Self.sample.appendingPathComponent($0).path })
            for path in paths {
                let made = folder.appendingPathComponent(Self.workbookName(path)).path
                try #require(FileManager.default.fileExists(atPath: made), "\(result.output)")
            }
        }
        try Self.expectCSVFindings(workbooks: folder)
    }

    @Test(.enabled(if: WorkbookTools.hasOpenpyxl, "needs python3-openpyxl, which the Makefile installs"))
    func openpyxlWorkbooks() throws {
        try clerkWorkbooks(producer: "openpyxl")
    }

    @Test(.enabled(if: hasXlsxWriter, "needs python3-xlsxwriter, which the Makefile installs"))
    func xlsxWriterWorkbooks() throws {
        try clerkWorkbooks(producer: "xlsxwriter")
    }

    /// Saves the sample's sheets as a clerk's workbooks with `producer` and checks they give the CSV findings.
    func clerkWorkbooks(producer: String) throws {
        let root = try AcceptanceTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("xlsx")
        for subfolder in ["sightings", "registers"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(subfolder), withIntermediateDirectories: true)
        }
        let arguments = try Self.sheets().flatMap { path in
            [
                Self.sample.appendingPathComponent(path).path,
                folder.appendingPathComponent(Self.workbookName(path)).path,
            ]
        }
        let result = WorkbookTools.python(Self.clerkScript, [producer] + arguments)
        try #require(result.status == 0, "\(result.output)")
        // The workbooks hold numbers and dates, not only text: thousands of number cells (tags, rooms, MACs of
        // digits, coordinates) and date cells (with and without a time of day).
        let counts = result.output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(counts.count == 3, "\(result.output)")
        #expect(counts[0] > 15_000 && counts[1] > 3_000 && counts[2] > 1_000, "\(result.output)")
        try Self.expectCSVFindings(workbooks: folder)
    }

    /// Writes each CSV (argument pairs: CSV, workbook) as a clerk's workbook with openpyxl or xlsxwriter, and
    /// prints how many number, date and date-time cells it wrote.
    ///
    /// A cell becomes a number when its text is exactly how Excel shows that number (`374844`, `37.226362`; not
    /// `000072`, `237502.0` or 16 digits, which Excel would change); a cell of a last-seen column (the built-in
    /// mapping's headers) becomes a date cell when it is a valid date (`4/14/2026`, `11/16/23`, `2026-02-22T18:48:55`,
    /// `2026-08-11 17:36`), with a date format. Other cells are text; empty cells are left out.
    static let clerkScript = """
        import csv, datetime, re, sys
        producer = sys.argv[1]
        dated_headers = {"last seen", "scanned at", "scan date", "date", "last inventory date", "last inv date",
            "received"}
        def number(text):
            if re.fullmatch(r"-?(0|[1-9][0-9]{0,14})", text):
                return int(text)
            if re.fullmatch(r"-?[0-9]+\\.[0-9]*[1-9]", text) and repr(float(text)) == text:
                return float(text)
            return None
        def date(text):
            m = re.fullmatch(r"(\\d{4})-(\\d\\d)-(\\d\\d)(?:[T ](\\d\\d):(\\d\\d)(?::(\\d\\d))?)?", text)
            if m:
                y, mo, d, h, mi, s = (int(g) if g else 0 for g in m.groups())
            else:
                m = re.fullmatch(r"(\\d{1,2})/(\\d{1,2})/(\\d{4}|\\d{2})", text)
                if not m:
                    return None
                mo, d, y = (int(g) for g in m.groups())
                h = mi = s = 0
                if len(m.group(3)) == 2:
                    y += 2000 if y <= 69 else 1900
            try:
                return datetime.datetime(y, mo, d, h, mi, s)
            except ValueError:
                return None
        def cells(path):
            with open(path, newline="", encoding="utf-8-sig") as f:
                table = list(csv.reader(f, delimiter="\\t" if path.endswith(".tsv") else ","))
            dated = {i for i, h in enumerate(table[0]) if h.strip().lower() in dated_headers}
            for r, row in enumerate(table):
                for c, text in enumerate(row):
                    if text == "":
                        continue
                    value = (date(text) if c in dated and r > 0 else None) or (number(text) if r > 0 else None)
                    yield r, c, text if value is None else value
        counts = [0, 0, 0]
        def count(value):
            if isinstance(value, datetime.datetime):
                counts[2 if value.time() != datetime.time() else 1] += 1
            elif not isinstance(value, str):
                counts[0] += 1
        for source, target in zip(sys.argv[2::2], sys.argv[3::2]):
            if producer == "openpyxl":
                import openpyxl
                book = openpyxl.Workbook()
                sheet = book.active
                for r, c, value in cells(source):
                    count(value)
                    cell = sheet.cell(row=r + 1, column=c + 1, value=value)
                    if isinstance(value, datetime.datetime):
                        timed = value.time() != datetime.time()
                        cell.number_format = "yyyy-mm-dd hh:mm:ss" if timed else "m/d/yyyy"
                book.save(target)
            else:
                import xlsxwriter
                book = xlsxwriter.Workbook(target)
                sheet = book.add_worksheet()
                formats = {False: book.add_format({"num_format": "m/d/yyyy"}),
                    True: book.add_format({"num_format": "yyyy-mm-dd hh:mm:ss"})}
                for r, c, value in cells(source):
                    count(value)
                    if isinstance(value, datetime.datetime):
                        sheet.write_datetime(r, c, value, formats[value.time() != datetime.time()])
                    elif isinstance(value, str):
                        sheet.write_string(r, c, value)
                    else:
                        sheet.write_number(r, c, value)
                book.close()
        print(*counts)
        """
}
