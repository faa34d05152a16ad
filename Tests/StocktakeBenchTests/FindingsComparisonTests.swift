import Testing

@testable import stocktake_bench

/// The findings comparison judges as the acceptance tests do, and fails on a finding missing or extra.
struct FindingsComparisonTests {
    static func finding(
        _ code: String, _ severity: String = "error", tag: String = "", cns: String = "", field: String = "",
        text: String = ""
    ) -> Finding {
        Finding(code: code, severity: severity, cells: [tag, cns, "", "", field, "", ""], text: text)
    }

    static let expected = [
        finding("MISSING", tag: "0001234", text: "central row 3"),
        finding("CNS_REUSED", cns: "C0000042", text: "two tags"),
        finding("FIELD_CONFLICT", "warning", tag: "0002222", field: "room"),
        finding("DUPLICATE_ROW", "info", tag: "0003333"),
    ]

    static let found = [
        finding("MISSING", tag: "0001234", cns: "C0001234", text: "VT tag 0001234 is missing"),
        finding("CNS_REUSED", cns: "C0000042", text: "reused"),
        finding("FIELD_CONFLICT", "warning", tag: "0002222", cns: "C0002222", field: "room"),
        finding("DUPLICATE_ROW", "info", tag: "0003333"),
    ]

    @Test func equalWhenEveryExpectedRowIsFoundAndNothingElse() {
        let comparison = FindingsComparison(expected: Self.expected, found: Self.found)
        #expect(comparison.isEqual)
        #expect(comparison.expectedCount == 4 && comparison.foundCount == 4)
        #expect(comparison.differences(limit: 10).isEmpty)
    }

    @Test func aMissingFindingIsNotFound() {
        let comparison = FindingsComparison(expected: Self.expected, found: Array(Self.found.dropFirst()))
        #expect(!comparison.isEqual)
        #expect(comparison.notFound == [Self.expected[0]])
        #expect(comparison.notExpected.isEmpty)
        #expect(comparison.differences(limit: 10) == ["not found: MISSING vt_tag=0001234 (central row 3)"])
    }

    @Test func aFindingOnAnotherTagIsBothNotFoundAndNotExpected() {
        var found = Self.found
        found[2] = Self.finding("FIELD_CONFLICT", "warning", tag: "0002223", field: "room", text: "other")
        let comparison = FindingsComparison(expected: Self.expected, found: found)
        #expect(
            comparison.differences(limit: 10) == [
                "not found: FIELD_CONFLICT vt_tag=0002222 field=room ()",
                "not expected: FIELD_CONFLICT vt_tag=0002223 field=room (other)",
            ])
    }

    @Test func anExtraErrorOrWarningIsNotExpectedButAnExtraInfoIsAllowed() {
        let extra = Self.finding("SHARED_MAC", tag: "0009999", text: "planted")
        let comparison = FindingsComparison(
            expected: Self.expected, found: Self.found + [extra, Self.finding("DUPLICATE_ROW", "info", tag: "0004444")])
        #expect(comparison.notFound.isEmpty)
        #expect(comparison.notExpected == [extra])
        #expect(comparison.differences(limit: 10) == ["not expected: SHARED_MAC vt_tag=0009999 (planted)"])
        #expect(!comparison.isEqual)
    }

    @Test func theCodeMustMatchAndAnExpectedRowWithoutCellsMatchesAnyOfItsCode() {
        let wrongCode = FindingsComparison(
            expected: [Self.finding("MISSING", tag: "0001234")], found: [Self.finding("UNRECORDED", tag: "0001234")])
        #expect(wrongCode.notFound.count == 1 && wrongCode.notExpected.count == 1)
        let bare = FindingsComparison(
            expected: [Self.finding("NO_TAG")], found: [Self.finding("NO_TAG", tag: "", cns: "C0000007")])
        #expect(bare.isEqual)
    }

    @Test func differencesAreLimited() {
        let comparison = FindingsComparison(expected: Self.expected, found: [])
        #expect(comparison.notFound.count == 4)
        #expect(comparison.differences(limit: 2).count == 2)
    }
}
