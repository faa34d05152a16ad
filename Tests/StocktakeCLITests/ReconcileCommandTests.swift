import Foundation
import Testing

/// `stocktake reconcile` run as a user runs it: options, exit statuses and the one-line messages.
struct ReconcileCommandTests {
    let runner = CommandRunner()

    /// Writes a two-asset account (one of them sighted) and returns the arguments that reconcile it into `out`.
    func account(out: String = "out") -> [String] {
        runner.write("VT Tag,Serial\n1,S1\n2,S2\n", to: "acct/central.csv")
        runner.write("Tag,Serial\n1,S1\n", to: "acct/scans/north.csv")
        return [
            "reconcile", "--central", "acct/central.csv", "--sighting", "acct/scans", "--as-of", "2026-11-20",
            "--out", out,
        ]
    }

    /// The issue's measure: a 300 MB line cost 1.3 GB, about 4 times the field (the tokenizer's buffer doubling
    /// past the field, the copy of its old contents while it grows, and the row batch's copy of the record). A field
    /// of 100 MB is now refused at 1 MiB, before it is buffered: the whole process stays far below one copy of it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs GNU time"))
    func aFieldOf100MBIsRefusedInBoundedMemory() throws {
        let stocktake = try #require(CommandRunner.executable)
        let arguments = [stocktake] + account()
        var bytes = Array("Tag,Serial\n1,".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 100 << 20)
        bytes += Array("\n".utf8)
        try #require(FileManager.default.createFile(atPath: runner.path("acct/scans/south.csv"), contents: Data(bytes)))

        let result = try runner.run(program: "/usr/bin/time", ["-f", "%M", "-o", "peak.txt"] + arguments)

        #expect(result.status == 65)
        #expect(
            result.standardError.hasSuffix(
                "acct/scans/south.csv: the field in column 2 of the row on line 2 is longer than 1048576 bytes, so the "
                    + "file is not read. Check that it is the spreadsheet you meant; if the field is real, raise "
                    + "rules.maxFieldBytes in the account's account.json.\n"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: runner.path("out")), "nothing is written")
        // GNU time writes "Command exited with non-zero status 65", then the peak in KB.
        let lines = runner.read("peak.txt")?.split(separator: "\n") ?? []
        let peakKB = try #require(lines.last.flatMap { Int($0) }, "\(lines)")
        #expect(peakKB < 64 << 10, "peak RSS \(peakKB) KB for a 100 MB field")
    }

    func usageError(_ problem: String) -> String {
        "stocktake: reconcile: \(problem). See 'stocktake reconcile --help'.\n"
    }

    @Test func helpPrintsTheUsage() throws {
        let result = try runner.run(["reconcile", "--help"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(
            result.standardOutput.hasPrefix(
                """
                Reconcile one account's spreadsheets and write the cleaned sheet and the discrepancy report.

                Usage:
                    stocktake reconcile --central FILE [--sighting FILE|DIR]... [--register FILE|DIR]...

                """))
        for option in [
            "--central", "--sighting", "--register", "--buildings", "--columns", "--tag-digits", "--cns-digits",
            "--stale-after-days", "--as-of", "--account", "--quiet", "--out", "--token-file", "--oauth", "--ca-file",
            "--push", "--report-to", "--connect-timeout", "--max-download-mb", "--sheets-api", "--drive-api",
        ] {
            #expect(result.standardOutput.contains("\n    \(option) "), "\(option) is not described")
        }
        #expect(result.standardOutput.hasSuffix("try again later), 77 credentials rejected.\n"))
    }

    @Test func helpWinsOverOtherArguments() throws {
        let result = try runner.run(["reconcile", "--frob", "-h"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("Reconcile one account's spreadsheets"))
    }

    @Test func goodRun() throws {
        let result = try runner.run(account() + ["--quiet"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(
            result.standardOutput == """
                acct: 2 assets, 1 error, 2 warnings, 0 info
                Report:        out/report.html
                Cleaned sheet: out/cleaned.csv
                Discrepancies: out/discrepancies.csv

                """)
        for file in ["cleaned.csv", "discrepancies.csv", "report.html", "summary.txt", "run.json"] {
            #expect(runner.read("out/" + file)?.isEmpty == false, "out/\(file) is missing or empty")
        }
        #expect(runner.read("out/discrepancies.csv")?.contains("\r\nMISSING,error,000002,") == true)
    }

    /// The report names the account as a clerk knows it, escaped, and states the run's time in the given zone; a zone
    /// this machine does not know is bad usage, before anything is read.
    @Test func theReportTakesTheAccountsNameAndTimeZone() throws {
        let result = try runner.run(
            account() + ["--quiet", "--name", "Acme <Clinic> & Co", "--time-zone", "America/New_York"])
        #expect(result.status == 0, "\(result.standardError)")
        let page = try #require(runner.read("out/report.html"))
        #expect(page.contains("<h1>Stocktake report: Acme &lt;Clinic&gt; &amp; Co</h1>"))
        let run = try #require(page.range(of: "<dt>Run</dt><dd>").map { String(page[$0.upperBound...].prefix(60)) })
        // "YYYY-MM-DD HH:MM EST (inventory as of …)": November is standard time in New York.
        #expect(run.dropFirst("YYYY-MM-DD HH:MM".count).hasPrefix(" EST (inventory as of 2026-11-20)"), "\(run)")

        let wrong = try runner.run(account(out: "out2") + ["--time-zone", "Mars/Olympus_Mons"])
        #expect(wrong.status == 64)
        #expect(
            wrong.standardError.contains("--time-zone names no time zone this machine knows (\"Mars/Olympus_Mons\")"))
        #expect(!FileManager.default.fileExists(atPath: runner.path("out2")))
    }

    @Test func progressIsLoggedOnStandardErrorUnlessQuiet() throws {
        let result = try runner.run(account() + ["--account", "campus"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("campus: 2 assets, "))
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.contains(" [campus] ") })
        #expect(lines.first?.hasSuffix(" [campus] read central.csv: 2 rows, 0 problems") == true)
    }

    @Test func optionsTakeEqualsValues() throws {
        let result = try runner.run(
            [
                "reconcile", "--central=acct/central.csv", "--out=elsewhere", "--quiet", "--tag-digits=8",
            ] + [])
        #expect(result.status == 66)
        #expect(result.standardError == "stocktake: acct/central.csv: no such file. Check the path, or create it.\n")
    }

    @Test(arguments: [
        (["--central", "c.csv", "--out", "o", "--frob"], "unknown option --frob"),
        (["--out", "o"], "--central FILE is required"),
        (["--central", "c.csv"], "--out DIR is required"),
        (["--central", "--out", "o"], "--central needs a value"),
        (["--central", "c.csv", "--central", "d.csv", "--out", "o"], "--central is given 2 times; give it once"),
        (["--central", "c.csv", "--out", "o", "extra"], "unexpected argument extra"),
        (
            ["--central", "c.csv", "--out", "o", "--as-of", "2026-13-01"],
            "--as-of must be a date as YYYY-MM-DD, not \"2026-13-01\""
        ),
        (
            ["--central", "c.csv", "--out", "o", "--as-of", "20/11/2026"],
            "--as-of must be a date as YYYY-MM-DD, not \"20/11/2026\""
        ),
        (
            ["--central", "c.csv", "--out", "o", "--tag-digits", "six"],
            "--tag-digits must be a whole number from 1 to 18, not \"six\""
        ),
        (
            ["--central", "c.csv", "--out", "o", "--tag-digits", "0"],
            "--tag-digits must be a whole number from 1 to 18, not \"0\""
        ),
        (
            ["--central", "c.csv", "--out", "o", "--cns-digits", "19"],
            "--cns-digits must be a whole number from 1 to 18, not \"19\""
        ),
        (
            ["--central", "c.csv", "--out", "o", "--stale-after-days", "-1"],
            "--stale-after-days must be a whole number from 0 to 36500, not \"-1\""
        ),
    ])
    func badUsage(arguments: [String], problem: String) throws {
        let result = try runner.run(["reconcile"] + arguments)
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(result.standardError == usageError(problem))
    }

    @Test func missingCentralFile() throws {
        let result = try runner.run(["reconcile", "--central", "nope.csv", "--out", "out", "--quiet"])
        #expect(result.status == 66)
        #expect(result.standardError == "stocktake: nope.csv: no such file. Check the path, or create it.\n")
        #expect(runner.read("out/run.json") == nil)
    }

    @Test func unterminatedQuote() throws {
        runner.write("VT Tag,Model\n1,ap\n2,\"ap\n3,ap\n", to: "central.csv")
        let result = try runner.run(["reconcile", "--central", "central.csv", "--out", "out", "--quiet"])
        #expect(result.status == 65)
        #expect(
            result.standardError
                == "stocktake: central.csv: a quoted field opened on line 3 is never closed. "
                + "Look for a stray \" on that line and save the file again.\n")
    }

    /// A scan Excel on Windows saved as "CSV" (Windows-1252) reconciles like its UTF-8 version; the clerk is told
    /// once, on standard error and in the report, never once per cell.
    @Test func aWindows1252SightingIsReadWithOneNote() throws {
        let arguments = account()
        try #require(
            FileManager.default.createFile(
                atPath: runner.path("acct/scans/north.csv"),
                contents: Data(
                    Array("Tag,Serial,Notes\n1,S1,caf".utf8) + [0xE9, 0x0A] + Array("2,S2,O".utf8) + [0x92, 0x0A])))
        let result = try runner.run(arguments + ["--account", "campus"])
        #expect(result.status == 0)
        let note = "north.csv: read as Windows-1252 because it is not UTF-8; save it as \"CSV UTF-8\" to be sure"
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.filter { $0.contains("Windows-1252") }.count == 1)
        #expect(lines.contains { $0.hasSuffix(" [campus] " + note) })
        #expect(runner.read("out/discrepancies.csv")?.contains("UTF-8") == false, "no finding per cell")
        let report = runner.read("out/report.html") ?? ""
        #expect(report.components(separatedBy: "Windows-1252").count - 1 == 1)
        #expect(runner.read("out/summary.txt")?.contains("Notes: 1 (listed in the report).") == true)
    }

    /// A scan saved as UTF-16 without a byte-order mark used to reconcile with exit 0, every row INVALID_VALUE.
    @Test func utf16SightingWithoutByteOrderMark() throws {
        var arguments = account()
        arguments.append("--quiet")
        let bytes = "Tag,Serial\r\n1,S1\r\n2,S2\r\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        try #require(FileManager.default.createFile(atPath: runner.path("acct/scans/north.csv"), contents: Data(bytes)))
        let result = try runner.run(arguments)
        #expect(result.status == 65)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "stocktake: acct/scans/north.csv: the file is encoded as UTF-16 LE without a byte-order mark, "
                + "which cannot be read. Open it in a spreadsheet and save it as \"CSV UTF-8\".\n")
        for file in ["cleaned.csv", "discrepancies.csv", "summary.txt"] {
            #expect(runner.read("out/" + file) == nil, "out/\(file) was written")
        }
    }

    @Test func centralWithoutATagColumn() throws {
        runner.write("Serial,Model\nS1,ap\n", to: "central.csv")
        let result = try runner.run(["reconcile", "--central", "central.csv", "--out", "out", "--quiet"])
        #expect(result.status == 65)
        #expect(
            result.standardError
                == "stocktake: central.csv: the central sheet has no VT tag column (its columns are \"Serial\", "
                + "\"Model\"). Map the tag column with --columns, for example {\"Asset #\": \"vt_tag\"}.\n")
    }

    @Test func unwritableOutputFolder() throws {
        runner.write("x", to: "file.txt")
        let result = try runner.run(account(out: "file.txt/out") + ["--quiet"])
        #expect(result.status == 73)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "stocktake: file.txt/out: cannot write it: not a directory. "
                + "Check that the folder exists, is writable and the disk is not full.\n")
    }

    /// A report that cannot be written (here it is larger than the files this process may write, which a write
    /// refuses as a full disk would) fails the run with its own error, after the tables and `changes.csv`, waiting
    /// to take their names, have taken them whole. No report, no `run.json` and no temporary file is left.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"), "needs prlimit (util-linux)"))
    func aReportThatCannotBeWrittenKeepsTheTablesWhole() throws {
        let stocktake = try #require(CommandRunner.executable)
        let whole = try runner.run(account(out: "whole") + ["--quiet"])
        try #require(whole.status == 0)
        let tables = [
            "changes.csv", "cleaned.csv", "cleaned.xlsx", "discrepancies.csv", "discrepancies.xlsx", "resolved.csv",
        ]
        let limit = 8_192
        func bytes(_ name: String) -> Data? { FileManager.default.contents(atPath: runner.path(name)) }
        for table in tables {
            try #require((bytes("whole/" + table)?.count ?? .max) < limit, "\(table) fits under the limit")
        }
        try #require((bytes("whole/report.html")?.count ?? 0) > limit, "report.html does not")

        // SIGXFSZ is ignored, so that a write past the limit fails (EFBIG) instead of ending the process.
        let result = try runner.run(
            program: "/bin/sh",
            ["-c", #"trap '' XFSZ; exec /usr/bin/prlimit --fsize=\#(limit) -- "$0" "$@""#, stocktake]
                + account(out: "out") + ["--quiet"])

        #expect(result.status == 73)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "stocktake: out/report.html: cannot write it: file too large. "
                + "Check that the folder exists, is writable and the disk is not full.\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: runner.path("out")).sorted()
        #expect(left == tables, "only the tables, under their names")
        for table in tables {
            #expect(bytes("out/" + table) == bytes("whole/" + table), "\(table) is whole")
        }
    }

    @Test(arguments: [
        (["--quiet=yes"], "reconcile: --quiet takes no value."),
        (["--sightings", "s.csv"], "reconcile: unknown option --sightings; did you mean --sighting?"),
        (["--out-dir", "o"], "reconcile: unknown option --out-dir."),
    ])
    func flagValuesAndMistypedOptions(arguments: [String], message: String) throws {
        let result = try runner.run(["reconcile", "--central", "c.csv", "--out", "o"] + arguments)
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(result.standardError == "stocktake: \(message) See 'stocktake reconcile --help'.\n")
    }
}

/// `--central-sheet` and `--all-sheets`: which worksheets of `.xlsx` sheets are read.
extension ReconcileCommandTests {
    /// Writes `name` as a workbook whose sheets (name, hidden, rows of texts) hold inline strings, with python3's
    /// zipfile.
    func writeWorkbook(_ name: String, _ sheets: [(name: String, hidden: Bool, rows: [[String]])]) throws {
        let script = """
            import json, sys, zipfile
            from xml.sax.saxutils import escape, quoteattr
            sheets = json.loads(sys.argv[2])
            relationship = '<Relationship Id="%s" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/%s" Target="%s"/>'
            def relationships(items):
                return ('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                    + "".join(relationship % item for item in items) + "</Relationships>")
            def column(index):
                return chr(ord("A") + index)
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("_rels/.rels", relationships([("rId1", "officeDocument", "xl/workbook.xml")]))
                entries = "".join('<sheet name=%s sheetId="%d"%s r:id="rId%d"/>' % (quoteattr(s["name"]), i + 1,
                    ' state="hidden"' if s["hidden"] else "", i + 1) for i, s in enumerate(sheets))
                z.writestr("xl/workbook.xml", '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
                    + entries + "</sheets></workbook>")
                z.writestr("xl/_rels/workbook.xml.rels", relationships([("rId%d" % (i + 1), "worksheet",
                    "worksheets/sheet%d.xml" % (i + 1)) for i in range(len(sheets))]))
                for i, s in enumerate(sheets):
                    rows = "".join('<row r="%d">' % (r + 1) + "".join('<c r="%s%d" t="inlineStr"><is><t>%s</t></is></c>'
                        % (column(c), r + 1, escape(text)) for c, text in enumerate(row)) + "</row>"
                        for r, row in enumerate(s["rows"]))
                    z.writestr("xl/worksheets/sheet%d.xml" % (i + 1), '<worksheet '
                        'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' + rows
                        + "</sheetData></worksheet>")
            """
        let description = sheets.map { ["name": $0.name, "hidden": $0.hidden, "rows": $0.rows] as [String: Any] }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: description), as: UTF8.self)
        let path = runner.path(name)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let result = try runner.run(program: "/usr/bin/python3", ["-c", script, path, json])
        try #require(result.status == 0, "\(result.standardError)")
    }

    /// A central workbook whose first sheet is a page of notes and whose second holds the assets.
    func centralWorkbook() throws {
        try writeWorkbook(
            "acct/central.xlsx",
            [
                ("Notes", false, [["Read me"], ["Assets are on the next sheet"]]),
                ("Assets", false, [["VT Tag", "Serial"], ["1", "S1"], ["2", "S2"]]),
            ])
        runner.write("Tag,Serial\n1,S1\n", to: "acct/scans/north.csv")
    }

    func reconcile(central: String, _ options: [String]) throws -> CommandResult {
        try runner.run(
            ["reconcile", "--central", central, "--sighting", "acct/scans", "--as-of", "2026-11-20", "--out", "out"]
                + options + ["--quiet"])
    }

    @Test func centralSheetNamesTheWorksheetToRead() throws {
        try centralWorkbook()
        let result = try reconcile(central: "acct/central.xlsx", ["--central-sheet", "Assets"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("acct: 2 assets, 1 error"))
        let discrepancies = runner.read("out/discrepancies.csv") ?? ""
        #expect(discrepancies.contains("\nMISSING,error,000002,,S2,,,,,central.xlsx[Assets]:2,"))
        // Without it the first sheet is read, which is not the assets'.
        let first = try reconcile(central: "acct/central.xlsx", [])
        #expect(first.status == 65)
        #expect(first.standardError.hasPrefix("stocktake: acct/central.xlsx: the central sheet has no VT tag column"))
    }

    @Test func aCentralSheetThatIsNotThereIsADataError() throws {
        try centralWorkbook()
        let result = try reconcile(central: "acct/central.xlsx", ["--central-sheet", "APs"])
        #expect(result.status == 65)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "stocktake: acct/central.xlsx: the workbook has no sheet named \"APs\"; its sheets are \"Notes\", "
                + "\"Assets\". Check the sheet's name where it is given (the account's sources, --central-sheet or --sheet).\n"
        )
        #expect(runner.read("out/discrepancies.csv") == nil)
        #expect(runner.read("out/run.json") == nil)
    }

    /// `--all-sheets` reads every visible sheet of a sightings workbook, each a source named by its sheet; the
    /// hidden one is left out.
    @Test func allSheetsReadsEveryVisibleWorksheet() throws {
        runner.write("VT Tag,Serial\n1,S1\n2,S2\n3,S3\n", to: "acct/central.csv")
        try writeWorkbook(
            "acct/scans/scans.xlsx",
            [
                ("North", false, [["Tag", "Serial"], ["1", "S1"]]),
                ("Old", true, [["Tag", "Serial"], ["2", "S2"]]),
                ("South", false, [["Tag", "Serial"], ["3", "S3"]]),
            ])
        func missing() -> [String] {
            (runner.read("out/discrepancies.csv") ?? "").split(whereSeparator: \.isNewline).filter {
                $0.hasPrefix("MISSING,")
            }
            .map { String($0.split(separator: ",")[2]) }
        }
        let first = try reconcile(central: "acct/central.csv", [])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(missing() == ["000002", "000003"])
        let all = try reconcile(central: "acct/central.csv", ["--all-sheets"])
        #expect(all.status == 0, "\(all.standardError)")
        #expect(missing() == ["000002"])
        let cleaned = runner.read("out/cleaned.csv") ?? ""
        #expect(cleaned.contains("scans.xlsx[North]") && cleaned.contains("scans.xlsx[South]"))
        #expect(!cleaned.contains("scans.xlsx[Old]"))
    }

    /// `--all-sheets` with a workbook that cannot be opened stops with its sentence, before anything is written.
    @Test func allSheetsOfADamagedWorkbookIsADataError() throws {
        _ = account()
        runner.write("PK\u{3}\u{4}cut short", to: "acct/scans/scans.xlsx")
        let result = try reconcile(central: "acct/central.csv", ["--all-sheets"])
        #expect(result.status == 65)
        #expect(
            result.standardError
                == "stocktake: acct/scans/scans.xlsx: the workbook file is cut off (it ends before its ZIP directory "
                + "does); it was not read. Copy the file again from where it came from, or open it in a spreadsheet "
                + "and save it again.\n")
        #expect(runner.read("out/run.json") == nil)
    }
}
