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
        outcome.report = "state/vt-nis/runs/20261120T021500Z/report.html"

        let line = AccountChild.resultLine(outcome)

        #expect(!line.contains("\n"))
        #expect(line.hasPrefix(#"{"account":"vt-nis","assets":3012,"errors":42,"#))
        #expect(try JSONDecoder().decode(AccountOutcome.self, from: Data(line.utf8)) == outcome)
    }

    @Test(arguments: [
        #"{"account":"a","assets":0,"errors":0,"push":"no push","report":"","status":3,"warnings":0}"#,
        #"{"account":"a","assets":0,"errors":0,"push":"no push","report":"","warnings":0}"#,
        #"{"account":"a","assets":0,"errors":0,"report":"","status":0,"warnings":0}"#,
        #"{"account":"a","assets":"many","errors":0,"push":"no push","report":"","status":0,"warnings":0}"#,
    ])
    func aLineWithAnUnknownStatusOrAMissingFieldIsNoOutcome(line: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(AccountOutcome.self, from: Data(line.utf8)) }
    }
}
