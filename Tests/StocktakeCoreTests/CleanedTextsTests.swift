import Dispatch
import Testing

@testable import StocktakeCore

@Suite("CleanedTexts: the texts of cleaned.csv and cleaned.xlsx, gathered once")
struct CleanedTextsTests {
    @Test func threadsAskingAtOnceAllGetTheSharedStringsOfTheReconciliation() {
        let reconciliation = OutputFixture.reconciliation
        let annotations = CleanedAnnotations(reconciliation)
        let expected = CleanedSharedStrings(reconciliation, annotations: annotations)
        let texts = CleanedTexts(reconciliation)
        let seen = ResultSlots<[String]>(count: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { seen[$0] = texts.sharedStrings.table.texts }
        for index in 0..<8 { #expect(seen[index] == expected.table.texts) }
        for column in CleanedSharedStrings.Column.allCases {
            for asset in reconciliation.assets.indices {
                #expect(texts.sharedStrings.index(column, ofAsset: asset) == expected.index(column, ofAsset: asset))
            }
        }
    }
}
