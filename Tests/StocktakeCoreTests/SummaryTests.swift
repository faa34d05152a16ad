import Testing

@testable import StocktakeCore

@Suite("Summary: summary.txt")
struct SummaryTests {
    @Test func theSummaryOfASmallReconciliation() {
        let expected = """
            stocktake: account vt-nis, as of 2026-11-20
            Assets: 3 (1 ok, 1 missing, 1 unrecorded, 0 in conflict), from 5 rows in 2 files.
            Discrepancies: 2 errors, 1 warning, 0 info.
              MISSING                1  error
              UNRECORDED             1  error
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
            Assets: 0 (0 ok, 0 missing, 0 unrecorded, 0 in conflict), from 5 rows in 2 files.
            Discrepancies: 123,456 errors, 0 warnings, 0 info.
              TAG_CNS_MISMATCH  123456  error
            Note: survey.csv: Columns "Room" and "Rm" both hold room; only "Room" is read.
            Pushed: cleaned.csv to https://sheets.example/central; report.html to /srv/www
            Report: /srv/stocktake/out/vt-nis/report.html

            """
        #expect(Summary.text(reconciliation, details: details) == expected)
    }
}
