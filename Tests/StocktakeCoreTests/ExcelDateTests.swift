import Testing

@testable import StocktakeCore

struct ExcelDateTests {
    @Test(arguments: [
        (1.0, "1900-01-01"), (59, "1900-02-28"), (60, "1900-02-29"), (61, "1900-03-01"), (45292, "2024-01-01"),
        (45292.5, "2024-01-01T12:00:00"), (44927.75, "2023-01-01T18:00:00"), (2_958_465, "9999-12-31"),
        (0.25, "06:00:00"), (36526.999999999, "2000-01-02"), (25569, "1970-01-01"),
    ])
    func convertsSerialsOfThe1900System(serial: Double, text: String) {
        #expect(ExcelDate.text(serial: serial, system: .from1900) == text)
    }

    @Test func convertsSerialsOfThe1904System() {
        #expect(ExcelDate.text(serial: 0, system: .from1904) == "1904-01-01")
        #expect(ExcelDate.text(serial: 43830, system: .from1904) == "2024-01-01")
        #expect(ExcelDate.text(serial: 1, system: .from1904) == "1904-01-02")
        #expect(ExcelDate.text(serial: 43830.25, system: .from1904) == "2024-01-01T06:00:00")
    }

    @Test func refusesSerialsOutsideTheCalendar() {
        #expect(ExcelDate.text(serial: -1, system: .from1900) == nil)
        #expect(ExcelDate.text(serial: 2_958_466, system: .from1900) == nil)
        #expect(ExcelDate.text(serial: .nan, system: .from1900) == nil)
        #expect(ExcelDate.text(serial: .infinity, system: .from1904) == nil)
    }
}
