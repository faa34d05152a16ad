import Testing

@testable import StocktakeGenerator

@Suite struct BuildingCatalogTests {
    @Test func sixtyBuildingsInSixZonesOfTen() {
        #expect(BuildingCatalog.buildings.count == 60)
        for zone in 1...BuildingCatalog.zoneCount {
            #expect(BuildingCatalog.buildings(inZone: zone).count == 10)
        }
    }

    @Test func codesAndNamesAreUnambiguous() {
        let codes = BuildingCatalog.buildings.map { $0.code.lowercased() }
        let names = BuildingCatalog.buildings.map { $0.name.lowercased() }
        #expect(Set(codes).count == 60)
        #expect(Set(names).count == 60)
        #expect(Set(codes).isDisjoint(with: names))
        let unknown = BuildingCatalog.unknownCodes.map { $0.lowercased() }
        #expect(Set(unknown).isDisjoint(with: codes))
        #expect(Set(unknown).isDisjoint(with: names))
    }

    @Test func buildingsAreOnCampus() {
        for building in BuildingCatalog.buildings {
            #expect((37_200_000...37_260_000).contains(building.latitudeMicrodegrees))
            #expect((-80_440_000 ... -80_400_000).contains(building.longitudeMicrodegrees))
        }
    }
}
