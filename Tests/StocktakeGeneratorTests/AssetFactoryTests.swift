import Testing

@testable import StocktakeGenerator

@Suite struct AssetFactoryTests {
    @Test func roomsAreUpperCaseWithSingleSpaces() {
        var random = SeededRandom(seed: 8)
        for _ in 0..<500 {
            let room = AssetFactory.room(random: &random)
            #expect(room == room.uppercased())
            #expect(!room.contains("  ") && !room.hasPrefix(" ") && !room.hasSuffix(" "))
            #expect(!room.isEmpty)
        }
    }

    @Test func assetsAreConsistentWithTheCatalogs() {
        var random = SeededRandom(seed: 8)
        var identifiers = IdentifierAllocator(tagDigits: 6, cnsDigits: 6)
        let asOf = CalendarDay(year: 2026, month: 11, day: 20)!
        let assets = (0..<300).map { _ in
            AssetFactory.makeAsset(identifiers: &identifiers, asOf: asOf, random: &random)
        }
        #expect(Set(assets.map(\.tag)).count == 300)
        #expect(Set(assets.map(\.serial)).count == 300)
        #expect(Set(assets.map(\.mac)).count == 300)
        #expect(Set(assets.compactMap(\.cns)).count == 300)
        for asset in assets {
            #expect(AccessPointModel.catalog.contains { $0.name == asset.model })
            #expect(["wall", "ceiling"].contains(asset.mount))
            #expect(CustodianDirectory.custodians.contains { $0.pid == asset.custodian })
            #expect(asset.serial.count == 10 && asset.serial == asset.serial.uppercased())
            #expect(asset.stockNumber == AccessPointModel.named(asset.model).stockNumber)
            #expect(asset.lastInventory < asOf)
        }
    }
}
