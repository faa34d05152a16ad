import StocktakeCore
import StocktakeJob
import Testing

@Suite struct AccountOutcomeTests {
    @Test func theLineNamesCountsPushAndReport() {
        var outcome = AccountOutcome(account: "north", status: .success, push: "pushed")
        outcome.assets = 1
        outcome.errors = 2
        outcome.warnings = 0
        outcome.report = "state/north/runs/20261124T021500Z/report.html"
        #expect(
            outcome.line
                == "north: 1 asset, 2 errors, 0 warnings; pushed; report state/north/runs/20261124T021500Z/report.html")
        outcome.report = ""
        #expect(outcome.line == "north: 1 asset, 2 errors, 0 warnings; pushed")
    }

    @Test func anErrorQuotingAHeaderCellStaysOneLine() {
        let header =
            "Notes\n2026-11-24T02:15:00Z [victim] pushed cleaned.csv\nvictim: 3006 assets, 0 errors, 0 warnings; "
            + "pushed\u{1B}[2J"
        var outcome = AccountOutcome(
            account: "vic\u{9B}tim", status: .temporaryFailure,
            push: "failed: central.csv: the central sheet has no VT tag column (its columns are \"\(header)\").")
        outcome.report = "state/victim/runs/x\r/report.html"
        #expect(
            outcome.line
                == #"vic\u{9B}tim: 0 assets, 0 errors, 0 warnings; failed: central.csv: the central sheet has no VT tag "#
                + #"column (its columns are "Notes\n2026-11-24T02:15:00Z [victim] pushed cleaned.csv\nvictim: 3006 "#
                + #"assets, 0 errors, 0 warnings; pushed\x1B[2J").; report state/victim/runs/x\r/report.html"#)
    }
}
