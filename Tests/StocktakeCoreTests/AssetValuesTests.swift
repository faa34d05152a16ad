import StocktakeCore
import Testing

struct AssetValuesTests {
    var full: AssetValues {
        var values = AssetValues()
        values.vtTag = VTTag(number: 1234, digits: 6)
        values.cnsNumber = CNSNumber(number: 42, digits: 6)
        values.serialNumber = SerialNumber(canonical: "ABC123")
        values.macAddress = MACAddress(value: 0xaabb_ccdd_eeff)
        values.model = "AP-515"
        values.description = "Wall AP"
        values.building = "TORG"
        values.room = "101 A"
        values.mount = "ceiling"
        values.custodian = "jdoe"
        values.latitude = 37.2296
        values.longitude = -80.4139
        values.lastSeen = InventoryDate(year: 2025, month: 3, day: 4)
        values.stockNumber = "S-9"
        values.cost = UnitCost(cents: 89_500)
        return values
    }

    @Test func canonicalTextOfEveryField() {
        #expect(
            CanonicalField.allCases.map { full.text($0) } == [
                "001234", "C000042", "ABC123", "aa:bb:cc:dd:ee:ff", "AP-515", "Wall AP", "TORG", "101 A", "ceiling",
                "jdoe", "37.2296", "-80.4139", "2025-03-04", "S-9", "895.00",
            ])
    }

    @Test func emptyValuesHaveEmptyText() {
        let empty = AssetValues()
        #expect(CanonicalField.allCases.map { empty.text($0) } == Array(repeating: "", count: 15))
        #expect(CanonicalField.allCases.contains { empty.has($0) } == false)
        #expect(empty.hasIdentifier == false)
    }

    @Test(arguments: [
        (37.0, "37"), (-80.42, "-80.42"), (0.0, "0"), (0.00001, "0.00001"), (-0.000123, "-0.000123"),
        (1e-7, "0.0000001"), (90.0, "90"), (-179.999999, "-179.999999"),
    ])
    func coordinatesAreWrittenAsPlainDecimals(degrees: Double, text: String) {
        var values = AssetValues()
        values.latitude = degrees
        values.longitude = degrees
        #expect(values.text(.latitude) == text)
        #expect(values.text(.longitude) == text)
    }

    @Test func hasTellsWhichFieldsAreSet() {
        var values = AssetValues()
        values.room = "1"
        values.lastSeen = InventoryDate(year: 2020, month: 1, day: 1)
        #expect(CanonicalField.allCases.filter { values.has($0) } == [.room, .lastSeen])
        #expect(CanonicalField.allCases.allSatisfy { full.has($0) })
    }

    @Test(arguments: CanonicalField.identifiers)
    func anyIdentifierCounts(field: CanonicalField) {
        var values = AssetValues()
        values.copy(field, from: full)
        #expect(values.hasIdentifier)
    }

    @Test func nonIdentifiersDoNotCount() {
        var values = full
        values.vtTag = nil
        values.cnsNumber = nil
        values.serialNumber = nil
        values.macAddress = nil
        #expect(values.hasIdentifier == false)
    }

    @Test func copyTakesOneFieldAtATime() {
        var values = AssetValues()
        for field in CanonicalField.allCases {
            values.copy(field, from: full)
            #expect(values.text(field) == full.text(field))
        }
        #expect(values == full)
        values.copy(.model, from: AssetValues())
        #expect(values.model == nil)
        #expect(values.room == "101 A")
    }
}
