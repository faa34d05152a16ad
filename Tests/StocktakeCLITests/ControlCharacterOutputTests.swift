import Foundation
import StocktakeCore
import Testing

/// A header cell holding line breaks and a terminal escape sequence once forged a "victim: 3006 assets; …; pushed"
/// line on standard output and a "[victim] pushed" log line, and cleared the terminal. Data-derived text is now
/// escaped wherever it is written for people; CSV and JSON outputs keep their own quoting.
struct ControlCharacterOutputTests {
    let runner = CommandRunner()

    /// The header cell of the attack, as the spreadsheet holds it.
    static let forgedHeader =
        "Notes\n2026-11-24T02:15:00Z [victim] pushed cleaned.csv\nvictim: 3006 assets; 0 new, 0 open, 0 resolved "
        + "findings; pushed\u{1B}[2J"
    /// The same cell as it is shown.
    static let shownHeader =
        #"Notes\n2026-11-24T02:15:00Z [victim] pushed cleaned.csv\nvictim: 3006 assets; 0 new, 0 open, 0 resolved "#
        + #"findings; pushed\x1B[2J"#

    /// Writes the accounts "north" (ordinary) and "victim", whose central sheet has the forged header cell and,
    /// when `tagColumn` is set, a VT tag column.
    func accounts(tagColumn: Bool) {
        let quoted = "\"" + Self.forgedHeader + "\""
        runner.write(
            (tagColumn ? "VT Tag" : "Asset") + ",Serial,\(quoted)\n100001,S1,x\n100002,S2,y\n",
            to: "data/victim/central.csv")
        runner.write("VT Tag,Serial\n200001,S9\n", to: "data/north/central.csv")
        for name in ["victim", "north"] {
            runner.write(
                #"{"central": {"provider": "file", "url": "../../data/\#(name)/central.csv"}}"#,
                to: "Jobs/\(name)/account.json")
        }
    }

    /// The one run folder of `account`.
    func runID(_ account: String) throws -> String {
        let runs = try FileManager.default.contentsOfDirectory(atPath: runner.path("state/\(account)/runs"))
        #expect(runs.count == 1)
        return try #require(runs.first)
    }

    /// Checks that `text` has no control byte but line breaks, and no ESC.
    func expectNoControlBytes(_ text: String, _ what: String) {
        let bad = text.utf8.filter { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F }
        #expect(bad.isEmpty, "\(what) holds control bytes \(bad)")
        #expect(!text.contains("\u{1B}"), "\(what) holds ESC")
    }

    /// Checks that every line of `log` is one log line of `north` or `victim`, and that none is a forged push.
    func expectOnlyLogLines(_ log: String) {
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(!lines.isEmpty)
        for line in lines {
            let tagged = line.contains(" [north] ") || line.contains(" [victim] ")
            #expect(tagged && line.first?.isNumber == true, "not a log line: \(line)")
            #expect(!line.hasPrefix("2026-11-24T02:15:00Z"), "forged log line: \(line)")
        }
    }

    @Test func aForgedUnmappedColumnStaysInsideItsLine() throws {
        accounts(tagColumn: true)
        let result = try runner.run(["run", "--as-of", "2026-11-20", "--parallel", "1"])
        #expect(result.status == 0, "\(result.standardError)")
        let victim = try runID("victim")
        let north = try runID("north")
        let summary = try #require(runner.read("state/victim/latest/summary.txt"))
        let northSummary = try #require(runner.read("state/north/latest/summary.txt"))
        // Both accounts have new error findings (MISSING): the mail carries their summaries.
        #expect(
            result.standardOutput == """
                2 of 2 accounts reconciled
                north: 1 asset; 2 new, 0 open, 0 resolved findings; no push; report state/north/runs/\(north)/report.html
                victim: 2 assets; 4 new, 0 open, 0 resolved findings; no push; report state/victim/runs/\(victim)/report.html

                == north: 1 new error finding ==

                """ + northSummary + "\n== victim: 2 new error findings ==\n" + summary)
        expectNoControlBytes(result.standardOutput, "standard output")
        expectNoControlBytes(result.standardError, "standard error")
        expectOnlyLogLines(result.standardError)

        // summary.txt counts the unmapped column; the forged name is listed only in the report.
        expectNoControlBytes(summary, "summary.txt")
        #expect(
            summary.contains(
                "\nUnmapped columns: 1 in 1 file (listed in the report; map them if they matter).\n"
                    + "Pushed: nothing (local run).\n"))
        #expect(!summary.contains("victim: 3006"))
        // cleaned.csv keeps CSV's own quoting; discrepancies.csv and run.json are untouched by the escaping.
        #expect(runner.read("state/victim/latest/cleaned.csv")?.contains("\u{1B}") == false)
        #expect(runner.read("state/victim/latest/run.json")?.contains(#"\u001b[2J"#) == true)
    }

    @Test func aFailedAccountQuotingTheForgedHeaderStaysOneLine() throws {
        accounts(tagColumn: false)
        let result = try runner.run(["run", "--as-of", "2026-11-20", "--parallel", "1"])
        #expect(result.status != 0)
        let victim = try runID("victim")
        let north = try runID("north")
        let failure =
            "failed: state/victim/runs/\(victim)/pulled/central.csv: the central sheet has no VT tag column "
            + "(its columns are \"Asset\", \"Serial\", \"\(Self.shownHeader)\"). "
            + "Map the tag column with --columns, for example {\"Asset #\": \"vt_tag\"}."
        let northSummary = try #require(runner.read("state/north/latest/summary.txt"))
        #expect(
            result.standardOutput == """
                1 of 2 accounts reconciled, 1 failed
                victim: FAILED: \(failure.dropFirst("failed: ".count))
                north: 1 asset; 2 new, 0 open, 0 resolved findings; no push; report state/north/runs/\(north)/report.html

                == north: 1 new error finding ==

                """ + northSummary)
        expectNoControlBytes(result.standardOutput, "standard output")
        expectNoControlBytes(result.standardError, "standard error")
        expectOnlyLogLines(result.standardError)
        #expect(
            result.standardError.split(separator: "\n").contains { $0.hasSuffix(" [victim] " + failure) },
            "\(result.standardError)")
    }

    @Test func errorsOnStandardErrorAreOneLine() throws {
        accounts(tagColumn: false)
        let result = try runner.run(["reconcile", "--central", "data/victim/central.csv", "--out", "out", "--quiet"])
        #expect(result.status == 65)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "stocktake: data/victim/central.csv: the central sheet has no VT tag column (its columns are "
                + "\"Asset\", \"Serial\", \"\(Self.shownHeader)\"). "
                + "Map the tag column with --columns, for example {\"Asset #\": \"vt_tag\"}.\n")
        let unknown = try runner.run(["pu\u{1B}[2Jsh"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError == #"stocktake: unknown command pu\x1B[2Jsh. See 'stocktake --help'."# + "\n")
    }

    @Test func checkKeepsOneLinePerCheck() throws {
        accounts(tagColumn: false)
        let result = try runner.run(["check", "--account", "victim"])
        #expect(result.status == 78)
        expectNoControlBytes(result.standardOutput, "standard output")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.last == "1 account, 2 checks: 1 OK, 1 FAIL.")
        #expect(lines.contains { $0.hasPrefix("victim   central       FAIL    ") && $0.contains(Self.shownHeader) })
    }

    @Test func inspectShowsTheCellsEscaped() throws {
        accounts(tagColumn: true)
        runner.write("VT Tag,Notes\n100001,\"two\nlines\u{85}\t\u{1B}]0;title\u{7}\"\n", to: "notes.csv")
        let result = try runner.run(["inspect", "notes.csv", "--rows"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasSuffix("\n\n" + #"100001 | two\nlines\u{85}\t\x1B]0;title\x07"# + "\n"))
        expectNoControlBytes(result.standardOutput, "standard output")

        let header = try runner.run(["inspect", "data/victim/central.csv"])
        #expect(header.status == 0)
        expectNoControlBytes(header.standardOutput, "standard output")
        #expect(header.standardOutput.contains("\n\(Self.shownHeader)  (unmapped)\n"))
        #expect(header.standardOutput.contains("\nUnmapped:   \(Self.shownHeader)\n"))
        // JSON keeps its own escaping.
        let json = try runner.run(["inspect", "data/victim/central.csv", "--json"])
        #expect(json.standardOutput.contains(#"\n2026-11-24T02:15:00Z [victim] pushed cleaned.csv\nvictim: "#))
        #expect(json.standardOutput.contains(#"pushed\u001b[2J"#))
    }

    @Test func lookupShowsCleanedCellsEscaped() throws {
        let header = CleanedTable.columns.joined(separator: ",")
        runner.write(
            header + "\n"
                + "001234,C000123,SN-77A,,AP-635,,BRK,\"4\n46\",,\"lmor\u{1B}[2Jrow\",,,2026-11-13,,ok,central.csv\n",
            to: "state/victim/runs/20261123T021500Z/cleaned.csv")
        try FileManager.default.createSymbolicLink(
            atPath: runner.path("state/victim/latest"), withDestinationPath: "runs/20261123T021500Z")
        runner.write(#"{"central": {"provider": "file", "url": "central.csv"}}"#, to: "Jobs/victim/account.json")
        runner.write("VT Tag\n1\n", to: "Jobs/victim/central.csv")
        let block = try runner.run(["lookup", "1234"])
        #expect(block.status == 0, "\(block.standardError)")
        expectNoControlBytes(block.standardOutput, "standard output")
        #expect(block.standardOutput.contains("\nRoom:       4\\n46\nCustodian:  lmor\\x1B[2Jrow\n"))
        let table = try runner.run(["lookup", "--custodian", "lmor\u{1B}[2Jrow"])
        #expect(table.status == 0, "\(table.standardError)")
        expectNoControlBytes(table.standardOutput, "standard output")
        #expect(table.standardOutput.contains(#"4\n46"#))
        let none = try runner.run(["lookup", "--custodian", "no\u{1B}body"])
        #expect(none.status == 1)
        #expect(none.standardOutput == #"No asset matches custodian no\x1Bbody in victim."# + "\n")
    }
}
