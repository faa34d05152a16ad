import StocktakeCore
import Testing

struct BuildingTableTests {
    let table = BuildingTable([
        Building(code: "TORG", name: "Torgersen Hall", latitude: 37.2297, longitude: -80.4200),
        Building(code: "NEW", name: "Newman Library"),
        Building(code: "MCB", name: "McBryde  Hall"),
        Building(code: "LIB", name: "NEW"),
    ])

    @Test(arguments: [
        ("TORG", "TORG"),
        ("  torg ", "TORG"),
        ("Torgersen Hall", "TORG"),
        ("TORGERSEN   hall", "TORG"),
        ("newman library", "NEW"),
        ("mcbryde hall", "MCB"),
        ("new", "NEW"),
        ("lib", "LIB"),
    ])
    func mapsCodesAndNamesToCodes(input: String, expected: String) {
        #expect(table.normalize(input) == .value(expected))
    }

    @Test(arguments: ["", "  ", "N/A", "TBD", "-"])
    func placeholdersAreEmpty(input: String) {
        #expect(table.normalize(input) == .empty)
    }

    @Test(arguments: ["Torgersen", "TORGHALL", "Newman-Library", "T O R G"])
    func unknownBuildingsAreInvalid(input: String) {
        #expect(table.normalize(input) == .invalid(reason: "is not in the buildings table"))
    }

    @Test func looksUpByCode() {
        #expect(table.building(code: "torg")?.latitude == 37.2297)
        #expect(table.building(code: " MCB ")?.name == "McBryde  Hall")
        #expect(table.building(code: "Torgersen Hall") == nil)
        #expect(table.buildings.map(\.code) == ["TORG", "NEW", "MCB", "LIB"])
    }

    @Test func firstBuildingWinsForARepeatedCode() {
        let repeated = BuildingTable([Building(code: "A", name: "First"), Building(code: "a", name: "Second")])
        #expect(repeated.building(code: "A")?.name == "First")
        #expect(repeated.normalize("second") == .value("a"))
    }
}
