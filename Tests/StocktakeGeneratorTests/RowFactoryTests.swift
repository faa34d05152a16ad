import Testing

@testable import StocktakeGenerator

@Suite struct RowFactoryTests {
    private let factory = RowFactory(tagDigits: 6, cnsDigits: 6)

    private func asset() -> Asset {
        Asset(
            tag: 1_234, cns: 56, serial: "CNAB12CD34", mac: 0x204C_0301_0203, model: "AP-515",
            description: "Aruba AP-515 access point", building: 0, room: "214", mount: "ceiling", custodian: "jharlan",
            latitudeMicrodegrees: 37_226_000, longitudeMicrodegrees: -80_427_000, stockNumber: "NIS-AP515",
            lastInventory: CalendarDay(year: 2026, month: 1, day: 5)!)
    }

    @Test func legacyRowsCarryExcelDamage() {
        var random = SeededRandom(seed: 4)
        for _ in 0..<50 {
            let cells = factory.legacy(asset(), tagText: nil, random: &random)
            #expect(cells[.tag] == "1234" || cells[.tag] == "1234.0")
            #expect(cells[.room] == "214")
            let date = cells[.lastSeen]!
            #expect(date.contains("/") || (40_909...41_910).contains(Int(date) ?? 0))
        }
        let scientific = factory.legacy(asset(), tagText: "1.23E+03", random: &random)
        #expect(scientific[.tag] == "1.23E+03")
    }

    @Test func billingRowsUseTheModelsStockNumberAndAmount() {
        var random = SeededRandom(seed: 4)
        let cells = factory.billing(tag: 1_234, cns: 56, model: "AP-535", random: &random)
        #expect(cells[.stockNumber] == "NIS-AP535")
        #expect(cells[.amount] == "$1,195.00")
    }

    @Test func surveyRowsOfInjectedAssetsCarryEveryValue() {
        var random = SeededRandom(seed: 4)
        let values = RowFactory.SurveyValues(
            tag: 1_234, serial: "CNAB12CD34", mac: 0x204C_0301_0203, building: 0, room: "214", mount: "wall",
            scanned: CalendarDay(year: 2026, month: 6, day: 1)!, latitudeMicrodegrees: 37_226_000,
            longitudeMicrodegrees: -80_427_000)
        for _ in 0..<50 {
            let cells = factory.survey(values, clean: false, random: &random)
            #expect(cells[.serial]!.uppercased().filter { $0 != " " } == "CNAB12CD34")
            #expect(cells[.mac]!.lowercased().filter(\.isHexDigit) == "204c03010203")
            #expect(cells[.gps] == "37.226000,-80.427000")
            #expect(cells[.mount]!.lowercased() == "wall")
        }
    }

    @Test func controllerRowsWithoutPlaceholderNoiseKeepTheSerial() {
        var random = SeededRandom(seed: 4)
        for _ in 0..<100 {
            let cells = factory.controller(
                name: "ABH-214-AP01", serial: "CNAB12CD34", mac: 1, model: "AP-515",
                seen: CalendarDay(year: 2026, month: 11, day: 1)!, clean: false, random: &random)
            #expect(cells[.serial]!.uppercased().filter { $0 != " " } == "CNAB12CD34")
            #expect(cells[.lastSeen]!.hasPrefix("2026-11-01 "))
        }
    }
}
