import Testing

@testable import StocktakeCore

@Suite("Severity")
struct SeverityTests {
    @Test func namesAreTheOnesWrittenToTheReports() {
        #expect(Severity.allCases.map(\.rawValue) == ["error", "warning", "info"])
    }

    @Test func errorsComeBeforeWarningsBeforeInfo() {
        #expect(Severity.error < .warning)
        #expect(Severity.warning < .info)
        #expect(Severity.error < .info)
        #expect(!(Severity.info < .error))
        #expect(!(Severity.warning < .warning))
        #expect([Severity.info, .error, .warning, .error].sorted() == [.error, .error, .warning, .info])
    }
}
