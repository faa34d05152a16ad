import Testing

@testable import StocktakeCore

@Suite("BuildingBill: a building's billing total")
struct BuildingBillTests {
    @Test(arguments: [
        (Int64(0), "0.00"), (5, "0.05"), (1_234_567_89, "1,234,567.89"), (-250, "-2.50"), (100, "1.00"),
    ])
    func totalsAreWrittenInUnitsAndCents(cents: Int64, text: String) {
        #expect(BuildingBill(building: "BUR", totalCents: cents).formattedTotal == text)
    }
}
