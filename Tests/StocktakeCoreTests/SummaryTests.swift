import Testing

@testable import StocktakeCore

@Suite("Summary: summary.txt")
struct SummaryTests {
    @Test func theSummaryOfASmallReconciliation() {
        let expected = """
            stocktake: account vt-nis, as of 2026-11-20
            Assets: 4 (1 ok, 1 missing, 1 unrecorded, 1 typo, 0 in conflict), from 5 rows in 2 files.
            Discrepancies: 2 errors, 2 warnings, 0 info.
              MISSING                1  error
              UNRECORDED             1  error
              POSSIBLE_TYPO          1  warning
              FIELD_CONFLICT         1  warning
            Unmapped columns (add them to the column mapping if they matter):
              central.csv: Notes, AP Name
            Note: survey.csv: Columns "Room" and "Rm" both hold room; only "Room" is read.
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
        let expected = """
            stocktake: account vt-nis, as of 2026-11-20
            Assets: 0 (0 ok, 0 missing, 0 unrecorded, 0 typo, 0 in conflict), from 5 rows in 2 files.
            Discrepancies: 123,456 errors, 0 warnings, 0 info.
              TAG_CNS_MISMATCH  123456  error
            Note: survey.csv: Columns "Room" and "Rm" both hold room; only "Room" is read.
            Pushed: cleaned.csv to https://sheets.example/central; report.html to /srv/www
            Report: /srv/stocktake/out/vt-nis/report.html

            """
        #expect(Summary.text(reconciliation, details: details) == expected)
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
        let reconciliation = Reconciliation(assets: [], discrepancies: [], inputs: inputs, asOf: OutputFixture.asOf)
        let text = Summary.text(reconciliation, details: details)
        #expect(
            text == #"""
                stocktake: account vic\ttim, as of 2026-11-20
                Assets: 0 (0 ok, 0 missing, 0 unrecorded, 0 typo, 0 in conflict), from 2 rows in 1 file.
                Discrepancies: 0 errors, 0 warnings, 0 info.
                Unmapped columns (add them to the column mapping if they matter):
                  cen\ntral.csv: Model, Notes\n2026-11-24T02:15:00Z [victim] pushed cleaned.csv\nvictim: 3006 assets, 0 errors, 0 warnings; pushed\x1B[2J
                Note: cen\ntral.csv: Columns "a\x07" and "b" both hold room.
                Pushed: cleaned.csv to /srv/\u{2028}x
                Report: /srv/out\r/report.html

                """#)
        #expect(!text.utf8.contains { $0 < 0x20 && $0 != 0x0A })
    }
}
