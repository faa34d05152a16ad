import StocktakeCore
import StocktakeJob
import Testing

@Suite struct AccountOutcomeTests {
    @Test func theLineNamesCountsPushAndReport() {
        var outcome = AccountOutcome(account: "north", status: .success, push: "pushed")
        outcome.assets = 1
        outcome.errors = 2
        outcome.warnings = 0
        outcome.new = 1
        outcome.open = 1
        outcome.resolved = 3
        outcome.report = "state/north/runs/20261124T021500Z/report.html"
        #expect(
            outcome.line
                == "north: 1 asset; 1 new, 1 open, 3 resolved findings; pushed; "
                + "report state/north/runs/20261124T021500Z/report.html")
        outcome.report = ""
        #expect(outcome.line == "north: 1 asset; 1 new, 1 open, 3 resolved findings; pushed")
        // Acknowledged findings are named only when there are some; large counts are grouped.
        outcome.assets = 3006
        outcome.open = 12_345
        outcome.acknowledged = 2
        #expect(outcome.line == "north: 3,006 assets; 1 new, 12,345 open, 3 resolved, 2 acknowledged findings; pushed")
    }

    @Test func aReconciledAccountWhosePushIsPendingKeepsItsCounts() {
        var outcome = AccountOutcome(
            account: "acme", status: .temporaryFailure, push: "push pending since 2026-11-23T02:15:00Z")
        outcome.assets = 2
        outcome.new = 2
        outcome.report = "state/acme/runs/20261124T021500Z/report.html"
        #expect(outcome.isReconciled)
        #expect(
            outcome.line
                == "acme: 2 assets; 2 new, 0 open, 0 resolved findings; push pending since 2026-11-23T02:15:00Z; "
                + "report state/acme/runs/20261124T021500Z/report.html")
    }

    @Test func anAccountThatWasNotReconciledSaysFailedOrSuspectAndWhy() {
        var failed = AccountOutcome(
            account: "acme", status: .unavailable,
            push: "failed: Account acme: cannot pull https://sheets.example.org/central.csv: the server did not answer."
        )
        #expect(!failed.isReconciled)
        #expect(
            failed.line
                == "acme: FAILED: Account acme: cannot pull https://sheets.example.org/central.csv: the server did not "
                + "answer.")
        failed.push = "skipped: another run holds its lock"
        #expect(failed.line == "acme: FAILED: skipped: another run holds its lock")
        var suspect = AccountOutcome(
            account: "beta", status: .temporaryFailure, push: "failed: Account beta: the central sheet has 0 rows.")
        suspect.suspect = true
        #expect(suspect.line == "beta: SUSPECT: Account beta: the central sheet has 0 rows.")
    }

    @Test func anErrorQuotingAHeaderCellStaysOneLine() {
        let header =
            "Notes\n2026-11-24T02:15:00Z [victim] pushed cleaned.csv\nvictim: 3006 assets; 0 new, 0 open, 0 resolved "
            + "findings; pushed\u{1B}[2J"
        var outcome = AccountOutcome(
            account: "vic\u{9B}tim", status: .temporaryFailure,
            push: "failed: central.csv: the central sheet has no VT tag column (its columns are \"\(header)\").")
        let escaped =
            #"central.csv: the central sheet has no VT tag column (its columns are "Notes\n2026-11-24T02:15:00Z "#
            + #"[victim] pushed cleaned.csv\nvictim: 3006 assets; 0 new, 0 open, 0 resolved findings; "#
            + #"pushed\x1B[2J")."#
        // Not reconciled: the FAILED line.
        #expect(outcome.line == #"vic\u{9B}tim: FAILED: "# + escaped)
        // Reconciled, its push failed: the account's line with the push result and the report.
        outcome.report = "state/victim/runs/x\r/report.html"
        #expect(
            outcome.line
                == #"vic\u{9B}tim: 0 assets; 0 new, 0 open, 0 resolved findings; failed: "# + escaped
                + #"; report state/victim/runs/x\r/report.html"#)
        #expect(!outcome.line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
}
