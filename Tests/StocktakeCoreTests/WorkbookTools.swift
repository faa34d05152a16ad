import Foundation

/// The outside programs the workbook tests check the written files with: python3 (its `zipfile`, and openpyxl)
/// and LibreOffice (`soffice`). A test that needs one that is absent is skipped, saying which.
enum WorkbookTools {
    /// Debian's python3, where python3-openpyxl installs (a python3 earlier on the PATH, such as pyenv's, may lack
    /// it); `python3` from the PATH when there is none.
    static let pythonCommand =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? ["/usr/bin/python3"] : ["python3"]

    /// Whether python3 runs.
    static let hasPython = python("import zipfile").status == 0

    /// Whether python3 can import openpyxl (Debian's python3-openpyxl).
    static let hasOpenpyxl = python("import openpyxl").status == 0

    /// Whether LibreOffice's `soffice` is on the PATH (Debian's libreoffice-calc-nogui).
    static let hasLibreOffice = run("/usr/bin/env", ["sh", "-c", "command -v soffice"]).status == 0

    /// Runs `script` with python3, the arguments following it, and returns its exit status and output.
    static func python(_ script: String, _ arguments: [String] = []) -> (status: Int32, output: String) {
        run("/usr/bin/env", pythonCommand + ["-c", script] + arguments)
    }

    /// Converts `path` to CSV with LibreOffice into `folder` (with a profile of its own, so tests running at the
    /// same time do not share one) and returns the CSV's text, or the converter's output when it made none.
    static func libreOfficeCSV(_ path: String, folder: String) -> String {
        let profile = folder + "/profile"
        let result = run(
            "/usr/bin/env",
            [
                "soffice", "-env:UserInstallation=file://" + profile, "--headless", "--convert-to", "csv",
                "--outdir", folder, path,
            ])
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension + ".csv"
        guard let data = FileManager.default.contents(atPath: folder + "/" + name) else {
            return "no CSV (status \(result.status)): \(result.output)"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs a program and returns its exit status and its standard output and error together.
    static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "\(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

extension WorkbookTools {
    /// What openpyxl reads from a workbook: per sheet its title, frozen cell, filter range, column widths, whether
    /// the header cells are bold, and the rows, each cell as openpyxl gives it: a text as it is, a number as
    /// "number 12.5", a date as "date 2026-03-05 yyyy-mm-dd" (with its number format), an empty cell as "".
    struct OpenedSheet: Decodable, Equatable {
        var title: String
        var freeze: String?
        var filter: String?
        var widths: [String: Double]
        var bold: [Bool]
        var rows: [[String]]
    }

    static let openpyxlReader = """
        import sys, json, datetime, openpyxl
        book = openpyxl.load_workbook(sys.argv[1])
        def cell(c):
            v = c.value
            if v is None: return ""
            if isinstance(v, datetime.datetime): return "date " + v.date().isoformat() + " " + c.number_format
            if isinstance(v, bool): return "bool " + repr(v)
            if isinstance(v, (int, float)):
                return "number " + repr(v) + ("" if c.number_format == "General" else " " + c.number_format)
            return v
        print(json.dumps([{"title": s.title, "freeze": s.freeze_panes, "filter": s.auto_filter.ref,
            "widths": {k: d.width for k, d in s.column_dimensions.items()},
            "bold": [bool(c.font.b) for c in s[1]],
            "rows": [[cell(c) for c in row] for row in s.iter_rows()]} for s in book.worksheets]))
        """

    /// The sheets of the workbook at `path` as openpyxl reads them, or its complaint.
    static func openpyxl(_ path: String) throws -> [OpenedSheet] {
        let result = python(openpyxlReader, [path])
        guard result.status == 0 else { throw OpenpyxlFailure(output: result.output) }
        return try JSONDecoder().decode([OpenedSheet].self, from: Data(result.output.utf8))
    }

    struct OpenpyxlFailure: Error, CustomStringConvertible {
        var output: String
        var description: String { "openpyxl could not read the workbook: \(output)" }
    }
}
