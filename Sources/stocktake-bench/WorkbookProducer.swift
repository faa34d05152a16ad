import Foundation
import StocktakeCore

/// Saves a CSV sheet as an `.xlsx` workbook with XlsxWriter, a producer the project does not write itself, the way
/// a clerk's workbook holds it: shared strings, whole numbers as number cells, `m/d/yyyy` dates as date cells.
enum WorkbookProducer {
    /// The Python program that writes the workbook: `script CSV XLSX`.
    static let script = """
        import csv, datetime, re, sys
        import xlsxwriter
        source, target = sys.argv[1], sys.argv[2]
        whole = re.compile(r'[1-9][0-9]{0,14}\\Z')
        date = re.compile(r'(\\d{1,2})/(\\d{1,2})/(\\d{4})\\Z')
        book = xlsxwriter.Workbook(target)
        sheet = book.add_worksheet('central')
        date_format = book.add_format({'num_format': 'm/d/yyyy'})
        with open(source, newline='', encoding='utf-8-sig') as f:
            for r, row in enumerate(csv.reader(f)):
                for c, cell in enumerate(row):
                    if r > 0 and whole.match(cell):
                        sheet.write_number(r, c, int(cell))
                        continue
                    m = date.match(cell) if r > 0 else None
                    if m:
                        try:
                            sheet.write_datetime(r, c, datetime.date(int(m[3]), int(m[1]), int(m[2])), date_format)
                            continue
                        except ValueError:
                            pass
                    if cell:
                        sheet.write_string(r, c, cell)
        book.close()

        """

    /// Debian's python3, where python3-xlsxwriter installs (a python3 earlier on the PATH may lack it), once it is
    /// known to import xlsxwriter.
    static func python() throws(BenchError) -> String {
        let python = "/usr/bin/python3"
        let fix = "install python3 and python3-xlsxwriter ('make bench-deps')."
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw .programMissing(path: python, fix: fix)
        }
        let check = MeasuredProcess(
            program: python, arguments: ["-c", "import xlsxwriter"], standardOutput: "/dev/null",
            standardError: "/dev/null")
        guard try check.run().0.succeeded else {
            throw .programMissing(path: "python3-xlsxwriter (\(python) cannot import xlsxwriter)", fix: fix)
        }
        return python
    }

    /// Writes the workbook of `csv` to `path`, replacing it only once it is complete.
    static func write(csv: String, to path: String, python: String) throws(BenchError) {
        let partial = path + ".partial-\(getpid())"
        let script = partial + ".py"
        defer { try? FileManager.default.removeItem(atPath: script) }
        do {
            try Data(Self.script.utf8).write(to: URL(fileURLWithPath: script))
        } catch {
            throw .cannotWrite(path: script, reason: "the producer program cannot be written (check the free space)")
        }
        let log = partial + ".err"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let process = MeasuredProcess(
            program: python, arguments: [script, csv, partial], standardOutput: "/dev/null", standardError: log)
        let (outcome, _) = try process.run()
        guard outcome.succeeded else {
            try? FileManager.default.removeItem(atPath: partial)
            throw .programFailed(program: "XlsxWriter (\(python))", outcome: outcome, log: LogTail.read(log))
        }
        guard rename(partial, path) == 0 else {
            throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// The file's size in bytes (0 when it cannot be read).
    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// The sum of the sizes of the workbook's parts once inflated.
    static func unzippedSize(of path: String) throws(BenchError) -> Int {
        do {
            return try ZipArchive(path: path).entries.reduce(0) { $0 + $1.uncompressedSize }
        } catch {
            throw .cannotRead(path: path, reason: error.description)
        }
    }
}
