import Testing

@testable import StocktakeCore

@Suite("FindingRanking: a device's most telling finding first")
struct FindingRankingTests {
    @Test func everyCodeIsRankedOnce() {
        #expect(FindingRanking.order.count == DiscrepancyCode.allCases.count)
        #expect(Set(FindingRanking.order) == Set(DiscrepancyCode.allCases))
    }

    @Test func theFindingThatExplainsTheOthersComesFirst() {
        let position = FindingRanking.position(of:)
        #expect(position(.possibleTypo) == 0)
        #expect(position(.possibleTypo) < position(.sharedSerial))
        #expect(position(.possibleTypo) < position(.sharedMAC))
        #expect(position(.duplicateTag) < position(.sharedSerial))
        #expect(position(.missing) < position(.fieldConflict))
        #expect(position(.stale) < position(.fieldConflict))
        #expect(position(.duplicateRow) == DiscrepancyCode.allCases.count - 1)
    }

    @Test func findingsOfOneCodeKeepTheirListedOrder() {
        let tag = VTTag(number: 4512, digits: 6)
        let typo = Discrepancy(code: .possibleTypo, vtTag: tag, sources: [], message: "")
        let shared = Discrepancy(code: .sharedSerial, vtTag: tag, sources: [], message: "")
        let room = Discrepancy(code: .fieldConflict, vtTag: tag, field: .room, sources: [], message: "")
        let model = Discrepancy(code: .fieldConflict, vtTag: tag, field: .model, sources: [], message: "")
        let sorted = [room, shared, model, typo].sorted(by: FindingRanking.isMoreTelling)
        #expect(sorted == [typo, shared, model, room])
    }
}
