import Foundation
import StocktakeCore
import Testing

@testable import StocktakeJob

struct AccountOutcomeCodableTests {
    @Test func anOutcomeSurvivesTheResultLine() throws {
        var outcome = AccountOutcome(
            account: "vt-nis", status: .temporaryFailure, push: "push pending since 2026-11-20T02:15:00Z: \"quoted\"")
        outcome.assets = 3012
        outcome.errors = 42
        outcome.warnings = 46
        outcome.new = 3
        outcome.open = 85
        outcome.resolved = 7
        outcome.acknowledged = 2
        outcome.newErrors = 1
        outcome.report = "state/vt-nis/runs/20261120T021500Z/report.html"
        outcome.summary = "state/vt-nis/runs/20261120T021500Z/summary.txt"

        let line = AccountChild.resultLine(outcome)

        #expect(
            line
                == #"{"account":"vt-nis","acknowledged":2,"assets":3012,"errors":42,"new":3,"newErrors":1,"open":85,"#
                + #""push":"push pending since 2026-11-20T02:15:00Z: \"quoted\"","#
                + #""report":"state/vt-nis/runs/20261120T021500Z/report.html","resolved":7,"status":75,"#
                + #""summary":"state/vt-nis/runs/20261120T021500Z/summary.txt","suspect":false,"warnings":46}"#)
        #expect(try JSONDecoder().decode(AccountOutcome.self, from: Data(line.utf8)) == outcome)
    }

    @Test func aSuspectOutcomeSurvivesTheResultLine() throws {
        var outcome = AccountOutcome(
            account: "beta", status: .dataError, push: "failed: Account beta: the central sheet has 0 rows.\n")
        outcome.suspect = true
        let line = AccountChild.resultLine(outcome)
        #expect(!line.contains("\n"))
        #expect(line.contains(#","suspect":true,"#))
        let decoded = try JSONDecoder().decode(AccountOutcome.self, from: Data(line.utf8))
        #expect(decoded == outcome)
        #expect(decoded.line == #"beta: SUSPECT: Account beta: the central sheet has 0 rows.\n"#)
    }

    /// A result line without the keys about the findings (a child of an older version still running) is an
    /// outcome with nothing new, open, resolved or acknowledged.
    @Test func aLineWithoutTheFindingKeysIsAnOutcomeWithNoneOfThem() throws {
        let line =
            #"{"account":"a","assets":5,"errors":1,"push":"no push","report":"r/report.html","status":0,"warnings":2}"#
        var expected = AccountOutcome(account: "a", status: .success, push: "no push")
        expected.assets = 5
        expected.errors = 1
        expected.warnings = 2
        expected.report = "r/report.html"
        #expect(try JSONDecoder().decode(AccountOutcome.self, from: Data(line.utf8)) == expected)
    }

    @Test(arguments: [
        #"{"account":"a","assets":0,"errors":0,"push":"no push","report":"","status":3,"warnings":0}"#,
        #"{"account":"a","assets":0,"errors":0,"push":"no push","report":"","warnings":0}"#,
        #"{"account":"a","assets":0,"errors":0,"report":"","status":0,"warnings":0}"#,
        #"{"account":"a","assets":"many","errors":0,"push":"no push","report":"","status":0,"warnings":0}"#,
        #"{"account":"a","assets":0,"errors":0,"new":"2","push":"no push","report":"","status":0,"warnings":0}"#,
        #"{"account":"a","assets":0,"errors":0,"push":"no push","report":"","status":0,"suspect":1,"warnings":0}"#,
    ])
    func aLineWithAnUnknownStatusOrAMissingFieldIsNoOutcome(line: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(AccountOutcome.self, from: Data(line.utf8)) }
    }
}
