import Testing

@testable import StocktakeGenerator

@Suite struct AccountPlannerTests {
    @Test func injectionCountGrowsWithTheAccount() {
        #expect(AccountPlanner.injectionCount(assets: 100) == 2)
        #expect(AccountPlanner.injectionCount(assets: 1_499) == 2)
        #expect(AccountPlanner.injectionCount(assets: 3_000) == 6)
        #expect(AccountPlanner.injectionCount(assets: 3_000, every: 25) == 120)
    }

    @Test func countsForThreeThousandAssets() {
        let plan = AccountPlanner.plan(GeneratorOptions(assets: 3_000, seed: 2_014))
        var counts: [String: Int] = [:]
        for expectation in plan.expectations {
            counts[expectation.discrepancy.code, default: 0] += 1
        }
        var expected = Dictionary(uniqueKeysWithValues: DiscrepancyCode.allCases.map { ($0.rawValue, 6) })
        expected["FIELD_CONFLICT"] = 10
        #expect(counts == expected)
        let invalidFields = plan.expectations.filter { $0.discrepancy.code == "INVALID_VALUE" }.map(\.discrepancy.field)
        #expect(invalidFields.sorted() == ["last_seen", "latitude", "mac_address", "mac_address", "vt_tag", "vt_tag"])
        let conflictFields = plan.expectations.filter { $0.discrepancy.code == "FIELD_CONFLICT" }.map(
            \.discrepancy.field)
        #expect(Set(conflictFields) == ["model", "building", "room", "mount", "custodian"])
        #expect(plan.rows[.central]?.count == 3_000)
    }

    @Test func everyInjectionUsesItsOwnAsset() {
        let plan = AccountPlanner.plan(GeneratorOptions(assets: 600, seed: 42))
        let tags = plan.expectations.map(\.discrepancy.vtTag).filter { !$0.isEmpty }
        #expect(Set(tags).count == tags.count)
        #expect(plan.expectations.allSatisfy { !$0.markers.isEmpty })
    }
}
