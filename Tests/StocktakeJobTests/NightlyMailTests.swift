import Foundation
import StocktakeCore
import Testing

@testable import StocktakeJob

@Suite struct NightlyMailTests {
    /// A reconciled account with `new` new findings, `newErrors` of them errors, and its report and summary in
    /// `folder`.
    static func reconciled(
        _ name: String, new: Int = 0, newErrors: Int = 0, push: String = "no push", folder: String = "/srv/state"
    ) -> AccountOutcome {
        var outcome = AccountOutcome(account: name, status: .success, push: push)
        outcome.assets = 10
        outcome.new = new
        outcome.open = 4
        outcome.newErrors = newErrors
        outcome.report = "\(folder)/\(name)/report.html"
        outcome.summary = "\(folder)/\(name)/summary.txt"
        return outcome
    }

    static func failed(_ name: String, status: StocktakeCore.ExitStatus = .unavailable, reason: String)
        -> AccountOutcome
    {
        AccountOutcome(account: name, status: status, push: "failed: " + reason)
    }

    static func suspect(_ name: String, reason: String) -> AccountOutcome {
        var outcome = AccountOutcome(account: name, status: .dataError, push: "failed: " + reason)
        outcome.suspect = true
        return outcome
    }

    @Test func theHeadlineSaysTheWholeNight() {
        #expect(NightlyMail.headline([Self.reconciled("a"), Self.reconciled("b")]) == "2 of 2 accounts reconciled")
        #expect(NightlyMail.headline([Self.reconciled("a")]) == "1 of 1 account reconciled")
        #expect(
            NightlyMail.headline([
                Self.reconciled("a"), Self.failed("b", reason: "x."), Self.suspect("c", reason: "y."),
            ])
                == "1 of 3 accounts reconciled, 1 failed, 1 suspect")
        #expect(NightlyMail.headline([Self.failed("a", reason: "x.")]) == "0 of 1 account reconciled, 1 failed")
        #expect(
            NightlyMail.headline([Self.suspect("a", reason: "x."), Self.suspect("b", reason: "y.")])
                == "0 of 2 accounts reconciled, 2 suspect")
        // A push that could not be made leaves the account reconciled, its push pending.
        var pending = Self.reconciled("a", push: "push pending since 2026-11-23T02:15:00Z")
        pending.status = .temporaryFailure
        #expect(NightlyMail.headline([pending, Self.reconciled("b")]) == "2 of 2 accounts reconciled, 1 push pending")
        var other = pending
        other.account = "c"
        #expect(
            NightlyMail.headline([pending, Self.failed("b", reason: "x."), other])
                == "2 of 3 accounts reconciled, 1 failed, 2 pushes pending")
        let many = (1...1_200).map { Self.reconciled("a\($0)") } + [Self.failed("z", reason: "x.")]
        #expect(NightlyMail.headline(many) == "1,200 of 1,201 accounts reconciled, 1 failed")
        #expect(NightlyMail.headline([]) == "0 of 0 accounts reconciled")
    }

    @Test func failedAndSuspectAccountsComeFirstEachWithItsReason() {
        let outcomes = [
            Self.reconciled("alpha"),
            Self.suspect("beta", reason: "Account beta: the central sheet has 0 rows: not reconciled or pushed."),
            Self.failed("clinic", status: .configuration, reason: "Account clinic: \"colour\" is not a key."),
            Self.reconciled("delta", push: "pushed: 2 cells changed, 0 rows added"),
            Self.failed("echo", reason: "Account echo: cannot pull https://sheets.example.org/central.csv."),
        ]
        #expect(
            NightlyMail.text(outcomes) == """
                2 of 5 accounts reconciled, 2 failed, 1 suspect
                clinic: FAILED: Account clinic: "colour" is not a key.
                echo: FAILED: Account echo: cannot pull https://sheets.example.org/central.csv.
                beta: SUSPECT: Account beta: the central sheet has 0 rows: not reconciled or pushed.
                alpha: 10 assets; 0 new, 4 open, 0 resolved findings; no push; report /srv/state/alpha/report.html
                delta: 10 assets; 0 new, 4 open, 0 resolved findings; pushed: 2 cells changed, 0 rows added; report /srv/state/delta/report.html

                """)
    }

    @Test func anAccountWithNewErrorFindingsCarriesItsSummary() throws {
        let root = TemporaryStateRoot()
        for name in ["north", "south"] {
            try FileManager.default.createDirectory(atPath: root.path + "/" + name, withIntermediateDirectories: true)
        }
        try "stocktake: account north, as of 2026-11-24\nSince the last run: 2 new, 4 open.\n".write(
            toFile: root.path + "/north/summary.txt", atomically: true, encoding: .utf8)
        try "stocktake: account south, as of 2026-11-24\n\nReport: r.html\n".write(
            toFile: root.path + "/south/summary.txt", atomically: true, encoding: .utf8)
        let outcomes = [
            Self.reconciled("middle", new: 3, folder: root.path),  // new warnings only: no summary
            Self.reconciled("north", new: 2, newErrors: 1, folder: root.path),
            Self.failed("quiet", reason: "x."),
            Self.reconciled("south", new: 1_234, newErrors: 1_234, folder: root.path),
        ]
        #expect(
            NightlyMail.text(outcomes) == """
                3 of 4 accounts reconciled, 1 failed
                quiet: FAILED: x.
                middle: 10 assets; 3 new, 4 open, 0 resolved findings; no push; report \(root.path)/middle/report.html
                north: 10 assets; 2 new, 4 open, 0 resolved findings; no push; report \(root.path)/north/report.html
                south: 10 assets; 1,234 new, 4 open, 0 resolved findings; no push; report \(root.path)/south/report.html

                == north: 1 new error finding ==
                stocktake: account north, as of 2026-11-24
                Since the last run: 2 new, 4 open.

                == south: 1,234 new error findings ==
                stocktake: account south, as of 2026-11-24

                Report: r.html

                """)
    }

    @Test func aSummaryWithoutAFinalLineBreakKeepsItsLastLine() throws {
        let root = TemporaryStateRoot()
        try FileManager.default.createDirectory(atPath: root.path + "/north", withIntermediateDirectories: true)
        try "stocktake: account north\nReport: r.html".write(
            toFile: root.path + "/north/summary.txt", atomically: true, encoding: .utf8)
        let text = NightlyMail.text([Self.reconciled("north", new: 1, newErrors: 1, folder: root.path)])
        #expect(text.hasSuffix("\n== north: 1 new error finding ==\nstocktake: account north\nReport: r.html\n"))
    }

    /// A summary's lines are split at its line feeds' bytes, exactly as splitting its `Character`s at `"\n"` splits
    /// them: a carriage return and line feed stay one line's end, and letters of any script stay whole.
    @Test(arguments: [
        "", "\n", "\n\n", "one", "one\n", "one\ntwo", "one\n\ntwo\n", "Zürich, 東京 🏢\nroom 3\n",
        "windows\r\nline\r\n", "mixed\r\nand\nbare\rcarriage\n", "e\u{301}\n\u{301}accent\n",
    ])
    func summaryLinesAreSplitAsCharactersSplitThem(summary: String) {
        var expected = summary.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if expected.last?.isEmpty == true { expected.removeLast() }
        #expect(NightlyMail.lines(of: summary) == expected)
    }

    @Test func anUnreadableSummaryIsSaidSo() {
        let root = TemporaryStateRoot()
        var outcome = Self.reconciled("north", new: 1, newErrors: 1, folder: root.path + "/gone\n")
        #expect(
            NightlyMail.text([outcome]) == """
                1 of 1 account reconciled
                north: 10 assets; 1 new, 4 open, 0 resolved findings; no push; report \(root.path)/gone\\n/north/report.html

                == north: 1 new error finding ==
                (its summary \(root.path)/gone\\n/north/summary.txt cannot be read)

                """)
        // A folder where the summary should be is no summary either.
        outcome.summary = root.path
        #expect(NightlyMail.text([outcome]).hasSuffix("\n(its summary \(root.path) cannot be read)\n"))
        // A result line that names no summary at all.
        outcome.summary = ""
        #expect(
            NightlyMail.text([outcome]).hasSuffix(
                "\n== north: 1 new error finding ==\n(its run names no summary.txt; see its report)\n"))
    }
}
