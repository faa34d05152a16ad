import Testing

@testable import StocktakeCore

@Suite("Summary: summary.txt")
struct SummaryTests {
    /// The id `FindingLedger` gives a finding with `code` and `key`, as written.
    static func id(_ code: DiscrepancyCode, _ key: String) -> String {
        FindingID(code: code, key: key).description
    }

    /// `count` MISSING findings, tags 100001 on, each with a short message.
    static func missing(_ count: Int) -> [Discrepancy] {
        (1...count).map { number in
            Discrepancy(
                code: .missing, vtTag: OutputFixture.tag(UInt64(100_000 + number)), sources: [],
                message: "Tag \(100_000 + number) is missing.")
        }
    }

    @Test func theSummaryOfASmallReconciliation() {
        let expected = """
            stocktake: account vt-nis, as of 2026-11-20
            4 assets: 1 ok, 1 missing, 1 unrecorded, 1 typo, 0 in conflict; 5 rows in 2 files.
            Since the last run: 4 new, 0 open, 0 resolved, 0 acknowledged.
            Findings: 2 errors, 2 warnings, 0 info.
            New findings, worst first:
              \(Self.id(.missing, "vt_tag=004513")) MISSING: VT tag 004513 (CNS C000124) is in central.csv row 2 but \
            no sighting file has seen it.
              \(Self.id(.unrecorded, "vt_tag=770001")) UNRECORDED: VT tag 770001 is in survey.csv row 3 but not in \
            the central sheet.
              \(Self.id(.fieldConflict, "vt_tag=004512|field=room")) FIELD_CONFLICT: The room "-5", from survey.csv \
            row 1, <wins> over =1+1 & the rest.
              \(Self.id(.possibleTypo, "scanned=004060|central=004600")) POSSIBLE_TYPO: VT tag 004060 in survey.csv \
            row 2 is not in the central sheet, and central tag 004600 (central.csv row 3, building BUR) was not seen; \
            two adjacent digits are swapped. Check…
            Unmapped columns: 2 in 1 file (listed in the report; map them if they matter).
            Notes: 1 (listed in the report).
            Pushed: nothing (local run).
            Report: /srv/stocktake/out/vt-nis/report.html

            """
        #expect(Summary.text(OutputFixture.reconciliation, details: OutputFixture.details) == expected)
    }

    @Test func pushesAndLargeCountsAndNoUnmappedColumns() {
        var details = OutputFixture.details
        details.pushes = ["cleaned.csv to https://sheets.example/central", "report.html to /srv/www"]
        let many = Array(repeating: Discrepancy(code: .tagCNSMismatch, sources: [], message: ""), count: 123_456)
        var inputs = OutputFixture.inputs
        inputs[0].unmapped = []
        let reconciliation = Reconciliation(assets: [], discrepancies: many, inputs: inputs, asOf: OutputFixture.asOf)
        // One key for all of them: the ledger numbers the later ones.
        let ids = [""] + (2...6).map { "|#\($0)" }
        let expected =
            """
            stocktake: account vt-nis, as of 2026-11-20
            0 assets: 0 ok, 0 missing, 0 unrecorded, 0 typo, 0 in conflict; 5 rows in 2 files.
            Since the last run: 123,456 new, 0 open, 0 resolved, 0 acknowledged.
            Findings: 123,456 errors, 0 warnings, 0 info.
            New findings, worst first:

            """
            + ids.map { "  \(Self.id(.tagCNSMismatch, $0)) TAG_CNS_MISMATCH: \n" }.joined() + """
                  … and 123,450 more new in discrepancies.csv.
                Notes: 1 (listed in the report).
                Pushed: cleaned.csv to https://sheets.example/central; report.html to /srv/www
                Report: /srv/stocktake/out/vt-nis/report.html

                """
        #expect(Summary.text(reconciliation, details: details) == expected)
    }

    @Test func onlyWhatIsNewIsListedAndTheRestIsCounted() {
        let previous = FindingLedger(
            findings: [OutputFixture.discrepancies[0], OutputFixture.discrepancies[1], OutputFixture.discrepancies[3]],
            previous: nil, asOf: InventoryDate(year: 2026, month: 11, day: 19)!)
        var reconciliation = OutputFixture.reconciliation
        reconciliation.discrepancies.remove(at: 3)
        reconciliation.ledger = FindingLedger(
            findings: reconciliation.discrepancies, previous: previous.entries, asOf: OutputFixture.asOf)
        let lines = Summary.text(reconciliation, details: OutputFixture.details).split(separator: "\n").map(String.init)
        #expect(
            Array(lines[2...5]) == [
                "Since the last run: 1 new, 2 open, 1 resolved, 0 acknowledged.",
                "Findings: 2 errors, 1 warning, 0 info.",
                "New findings, worst first:",
                "  \(Self.id(.fieldConflict, "vt_tag=004512|field=room")) FIELD_CONFLICT: The room \"-5\", from "
                    + "survey.csv row 1, <wins> over =1+1 & the rest.",
            ])
        #expect(lines[6] == "Unmapped columns: 2 in 1 file (listed in the report; map them if they matter).")
    }

    @Test func asManyNewFindingsAsFitAreListedInFifteenLines() {
        var details = OutputFixture.details
        details.account = "north"
        let inputs = [OutputFixture.inputs[0]].map { input in
            var input = input
            input.unmapped = []
            return input
        }
        // Four lines before the findings, two after (pushed, report), one for the heading: room for eight.
        for (count, shown) in [(8, 8), (9, 7), (1_234, 7)] {
            let findings = Self.missing(count)
            let reconciliation = Reconciliation(
                assets: [], discrepancies: findings, inputs: inputs, asOf: OutputFixture.asOf)
            let lines = Summary.text(reconciliation, details: details).split(separator: "\n").map(String.init)
            #expect(lines.count == Summary.maximumLines, "\(count) findings")
            #expect(lines[4] == "New findings, worst first:")
            #expect(
                Array(lines[5..<(5 + shown)])
                    == (1...shown).map {
                        "  \(Self.id(.missing, "vt_tag=\(100_000 + $0)")) MISSING: Tag \(100_000 + $0) is missing."
                    }, "\(count) findings")
            let more = count > shown ? ["  … and \(grouped(count - shown)) more new in discrepancies.csv."] : []
            #expect(
                Array(lines[(5 + shown)...])
                    == more + ["Pushed: nothing (local run).", "Report: /srv/stocktake/out/vt-nis/report.html"],
                "\(count) findings")
        }
    }

    @Test func aLineIsCutAtTwoHundredCharacters() {
        #expect(Summary.maximumWidth == 200)
        let exact = String(repeating: "é", count: 200)
        #expect(Summary.fitted(exact) == exact)
        #expect(Summary.fitted(exact + "x") == String(repeating: "é", count: 199) + "…")
        // An account name and a push result from the data, long and full of control characters: escaped first, then
        // cut, so that no line is over 200 characters however many escapes it grew.
        var details = OutputFixture.details
        details.account = String(repeating: "a\u{7}", count: 100)
        details.pushes = [String(repeating: "p", count: 150), String(repeating: "q", count: 150)]
        let reconciliation = Reconciliation(
            assets: [], discrepancies: Self.missing(1), inputs: OutputFixture.inputs, asOf: OutputFixture.asOf)
        let lines = Summary.text(reconciliation, details: details).split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= Summary.maximumWidth })
        #expect(
            lines[0] == "stocktake: account " + String(repeating: #"a\x07"#, count: 36) + "…")
        #expect(
            lines[8] == "Pushed: " + String(repeating: "p", count: 150) + "; " + String(repeating: "q", count: 39) + "…"
        )
        #expect(lines[0].count == 200 && lines[8].count == 200)
    }

    @Test func dataDerivedTextIsEscaped() {
        let forged =
            "Notes\n2026-11-24T02:15:00Z [victim] pushed cleaned.csv\nvictim: 3006 assets, 0 errors, "
            + "0 warnings; pushed\u{1B}[2J"
        var details = RunDetails(account: "vic\ttim", started: OutputFixture.started, outputDirectory: "/srv/out\r")
        details.pushes = ["cleaned.csv to /srv/\u{2028}x"]
        let inputs = [
            Reconciliation.Input(
                file: SourceFile(path: "/data/central.csv", role: .central, displayName: "cen\ntral.csv"), rows: 2,
                delimiter: .comma, unmapped: ["Model", forged], notes: ["Columns \"a\u{7}\" and \"b\" both hold room."])
        ]
        let finding = Discrepancy(
            code: .unrecorded, vtTag: OutputFixture.tag(770001), sources: [],
            message: "VT tag 770001 is in cen\ntral.csv row 3\u{1B}[2J but not in the central sheet.")
        let reconciliation = Reconciliation(
            assets: [], discrepancies: [finding], inputs: inputs, asOf: OutputFixture.asOf)
        let text = Summary.text(reconciliation, details: details)
        #expect(
            text == #"""
                stocktake: account vic\ttim, as of 2026-11-20
                0 assets: 0 ok, 0 missing, 0 unrecorded, 0 typo, 0 in conflict; 2 rows in 1 file.
                Since the last run: 1 new, 0 open, 0 resolved, 0 acknowledged.
                Findings: 1 error, 0 warnings, 0 info.
                New findings, worst first:
                  \#(Self.id(.unrecorded, "vt_tag=770001")) UNRECORDED: VT tag 770001 is in cen\ntral.csv row 3\x1B[2J but not in the central sheet.
                Unmapped columns: 2 in 1 file (listed in the report; map them if they matter).
                Notes: 1 (listed in the report).
                Pushed: cleaned.csv to /srv/\u{2028}x
                Report: /srv/out\r/report.html

                """#)
        #expect(!text.utf8.contains { $0 < 0x20 && $0 != 0x0A })
        #expect(!text.contains("victim"), "the forged column name stays in the report")
    }
}

extension SummaryTests {
    @Test func aRehearsedRunSaysWhichFailuresWereSimulated() {
        var details = OutputFixture.details
        details.simulation = FailureSimulation([.push], origin: .commandLine)
            .merging(FailureSimulation([.upload], origin: .account))
        let lines = Summary.text(OutputFixture.reconciliation, details: details).split(separator: "\n")
        #expect(
            lines.contains(
                "Rehearsal: simulated failures push (--simulate-failure), upload (testFailureMode); nothing reached "
                    + "a server for them."))
        #expect(lines.count <= Summary.maximumLines)
        #expect(
            !Summary.text(OutputFixture.reconciliation, details: OutputFixture.details).contains("Rehearsal"),
            "a real run has no such line")
    }
}
