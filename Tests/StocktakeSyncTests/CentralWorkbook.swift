import Foundation
import StocktakeCore
import Testing

/// Central sheets that are `.xlsx` workbooks, made at test time by XlsxWriter (a real producer: shared strings,
/// styles, a number format, column widths, a comment, formulas, a second sheet) or from hand-written XML parts
/// with python's zipfile, and read back with openpyxl and LibreOffice.
enum CentralWorkbook {
    /// Debian's python3, where python3-xlsxwriter and python3-openpyxl install.
    static let python =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"

    /// Whether python3 can import XlsxWriter and openpyxl.
    static let hasProducers = run(python, ["-c", "import xlsxwriter, openpyxl"]).status == 0

    /// Whether LibreOffice's `soffice` is on the PATH.
    static let hasLibreOffice = run("/usr/bin/env", ["sh", "-c", "command -v soffice"]).status == 0

    /// XlsxWriter's workbook: sheet "Assets" with a bold header, the tag 4512 stored as a number (format `000000`),
    /// a lower-case serial (a shared string), an empty room, a formula room with its cached value, column widths
    /// and a comment; sheet "Other" with a formula.
    static let xlsxWriterScript = """
        import sys, xlsxwriter
        book = xlsxwriter.Workbook(sys.argv[1])
        sheet = book.add_worksheet("Assets")
        bold = book.add_format({"bold": True, "bg_color": "#FFFF00"})
        padded = book.add_format({"num_format": "000000"})
        sheet.write_row(0, 0, ["VT Tag", "Serial Number", "Building", "Room", "Notes"], bold)
        sheet.write_number(1, 0, 4512, padded)
        sheet.write_row(1, 1, ["cnf123", "BUR", "101", "kept"])
        sheet.write_row(2, 0, ["004513", "CNF124", "BUR"])
        sheet.write_row(3, 0, ["004514", "CNF125", "BUR"])
        sheet.write_formula(3, 3, '="1"&"03"', None, "103")
        sheet.write(3, 4, "formula room")
        sheet.set_column(0, 0, 14)
        sheet.set_column(4, 4, 30)
        sheet.write_comment(1, 4, "checked by J")
        other = book.add_worksheet("Other")
        other.write_row(0, 0, ["x", "y"])
        other.write_number(1, 0, 1)
        other.write_formula(1, 1, "=A2*2", None, 2)
        book.close()
        """

    /// A survey of the three tags: 4512's serial in capitals, 4513's room, 4514's room (the formula's), and an
    /// unrecorded tag.
    static let survey = "P-Tag,Serial,Room\n4512,CNF123,205\n4513,CNF124,102\n4514,CNF125,104\n4999,CNF999,300\n"

    /// The workbook XlsxWriter makes with `xlsxWriterScript`.
    static func xlsxWriter() throws -> [UInt8] {
        try withTemporaryPath("xlsxwriter.xlsx") { path in
            let result = run(python, ["-c", xlsxWriterScript, path])
            guard result.status == 0, let data = FileManager.default.contents(atPath: path) else {
                throw Failure(description: "XlsxWriter failed: \(result.output)")
            }
            return [UInt8](data)
        }
    }

    /// A workbook of one sheet "Assets" whose worksheet XML is `sheet`, zipped by python's zipfile.
    static func handWritten(sheet: String) throws -> [UInt8] {
        let parts = [
            ("[Content_Types].xml", "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>"),
            (
                "_rels/.rels",
                "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                    + "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/"
                    + "relationships/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"
            ),
            (
                "xl/workbook.xml",
                "<workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" "
                    + "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">"
                    + "<sheets><sheet name=\"Assets\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"
            ),
            (
                "xl/_rels/workbook.xml.rels",
                "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                    + "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/"
                    + "relationships/worksheet\" Target=\"worksheets/sheet1.xml\"/></Relationships>"
            ),
            ("xl/worksheets/sheet1.xml", sheet),
        ]
        let script =
            "import sys, zipfile, json\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n"
            + "    for name, text in json.loads(sys.argv[2]): z.writestr(name, text)\n"
        let json = String(
            decoding: try JSONSerialization.data(withJSONObject: parts.map { [$0.0, $0.1] }), as: UTF8.self)
        return try withTemporaryPath("handwritten.xlsx") { path in
            let result = run(python, ["-c", script, path, json])
            guard result.status == 0, let data = FileManager.default.contents(atPath: path) else {
                throw Failure(description: "zipfile failed: \(result.output)")
            }
            return [UInt8](data)
        }
    }

    /// Expects every entry of `pushed` but `worksheet` to be the same stored record as in `pulled`, in the same
    /// order, and the worksheet's to differ.
    static func expectOnlyTheWorksheetChanged(
        _ pushed: [UInt8], from pulled: [UInt8], worksheet: String = "xl/worksheets/sheet1.xml"
    ) throws {
        let before = try ZipArchive(bytes: pulled, name: "pulled.xlsx")
        let after = try ZipArchive(bytes: pushed, name: "pushed.xlsx")
        #expect(after.entries.map(\.name) == before.entries.map(\.name))
        for (old, new) in zip(before.entries, after.entries) {
            let same = before.storedRecord(of: old).elementsEqual(after.storedRecord(of: new))
            #expect(same == (old.name != worksheet), "\(old.name)")
        }
    }

    /// The text of the part `name` of the workbook `bytes`.
    static func part(_ name: String, of bytes: [UInt8]) throws -> String {
        let archive = try ZipArchive(bytes: bytes, name: "central.xlsx")
        let entry = try #require(archive.entry(named: name))
        return String(decoding: try archive.contents(of: entry), as: UTF8.self)
    }

    /// The cells of every sheet as openpyxl reads them, each "TYPE VALUE" (`s` text, `n` number, `f` formula), an
    /// empty cell "".
    static func openpyxlCells(_ bytes: [UInt8]) throws -> [String: [[String]]] {
        let script = """
            import sys, json, openpyxl
            book = openpyxl.load_workbook(sys.argv[1])
            def cell(c):
                return "" if c.value is None else c.data_type + " " + str(c.value)
            print(json.dumps({s.title: [[cell(c) for c in row] for row in s.iter_rows()] for s in book.worksheets}))
            """
        let result = try withTemporaryPath("read.xlsx") { path in
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return run(python, ["-c", script, path])
        }
        guard result.status == 0 else { throw Failure(description: "openpyxl failed: \(result.output)") }
        return try JSONDecoder().decode([String: [[String]]].self, from: Data(result.output.utf8))
    }

    /// The CSV LibreOffice makes of the first sheet of the workbook `bytes`, or what it said when it made none.
    static func libreOfficeCSV(_ bytes: [UInt8]) throws -> String {
        try withTemporaryPath("libreoffice") { folder in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/pushed.xlsx"))
            let result = run(
                "/usr/bin/env",
                [
                    "soffice", "-env:UserInstallation=file://\(folder)/profile", "--headless", "--convert-to", "csv",
                    "--outdir", folder, folder + "/pushed.xlsx",
                ])
            guard let data = FileManager.default.contents(atPath: folder + "/pushed.csv") else {
                return "no CSV (status \(result.status)): \(result.output)"
            }
            return String(decoding: data, as: UTF8.self)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Calls `body` with the path `name` in a fresh `workbook-…` folder in /tmp, and removes the folder (and
    /// whatever `body` wrote there) when `body` returns or throws: the workbooks, and LibreOffice's profile, are
    /// needed only while they are made or read.
    private static func withTemporaryPath<T>(_ name: String, _ body: (String) throws -> T) rethrows -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder.appendingPathComponent(name).path)
    }

    /// Runs a program and returns its exit status and its standard output and error together.
    private static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "\(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
