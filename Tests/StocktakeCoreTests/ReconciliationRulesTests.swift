import Testing

@testable import StocktakeCore

@Suite("ReconciliationRules: the defaults of DOMAIN.md")
struct ReconciliationRulesTests {
    @Test func defaultsFollowTheDomain() {
        let asOf = InventoryDate(year: 2026, month: 11, day: 20)!
        let rules = ReconciliationRules(asOf: asOf)
        #expect(rules.asOf == asOf)
        #expect(rules.tagDigits == 6)
        #expect(rules.cnsDigits == 6)
        #expect(rules.staleAfterDays == 365)
        #expect(rules.fallbackIdentifiers == [.serialNumber, .macAddress, .cnsNumber])
        #expect(rules.precedence.isEmpty)
        #expect([CanonicalField.vtTag] + rules.fallbackIdentifiers == CanonicalField.identifiers)
    }
}
