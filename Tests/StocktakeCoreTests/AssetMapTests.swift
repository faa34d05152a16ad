import Testing

@testable import StocktakeCore

@Suite("AssetMap: the inline SVG of positions")
struct AssetMapTests {
    static let buildings = BuildingTable([
        Building(code: "BUR", name: "Burruss Hall", latitude: 37.0, longitude: -80.0),
        Building(code: "TOR", name: "Torgersen", latitude: nil, longitude: nil),
    ])

    static func asset(_ tag: UInt64, building: String?, position: (Double, Double)?) -> CleanedAsset {
        var values = AssetValues()
        values.vtTag = OutputFixture.tag(tag)
        values.building = building
        values.latitude = position?.0
        values.longitude = position?.1
        return CleanedAsset(values: values, status: .ok, sources: [])
    }

    @Test func anAssetWithoutAPositionStandsAtItsBuilding() {
        let map = AssetMap(
            assets: [
                Self.asset(1, building: "BUR", position: (37.01, -80.01)),
                Self.asset(2, building: "BUR", position: nil),
                Self.asset(3, building: "TOR", position: nil), Self.asset(4, building: nil, position: nil),
            ], flagged: [2], buildings: Self.buildings)
        #expect(
            map.points == [
                AssetMap.Point(
                    latitude: 37.01, longitude: -80.01, building: "BUR", assets: 1, flagged: 0,
                    isBuildingPosition: false),
                AssetMap.Point(
                    latitude: 37.0, longitude: -80.0, building: "BUR", assets: 1, flagged: 1, isBuildingPosition: true),
            ])
        #expect(map.unplaced == 2)
        let svg = map.svg()!
        #expect(svg.contains("aria-label=\"Map of 2 assets in 1 building, 1 with findings (shown in red)\""))
        // The bounding box is scaled to fit: the north-west asset at the top left, the building's point bottom right.
        #expect(svg.contains("<circle cx=\"20.0\" cy=\"20.0\" r=\"3.0\" fill=\"#1f77b4\"/>"))
        #expect(svg.contains("stroke=\"#c00\""))
        #expect(
            AssetMap(assets: [Self.asset(4, building: nil, position: nil)], flagged: [], buildings: nil).svg() == nil)
    }

    @Test func pastTheLimitOneCirclePerBuildingIsDrawn() {
        let assets = (1...30).map {
            Self.asset(UInt64($0), building: $0 % 2 == 0 ? "BUR" : "ZED", position: (37 + Double($0) / 1000, -80))
        }
        let map = AssetMap(assets: assets, flagged: [2, 3], buildings: Self.buildings, maximumPoints: 10)
        #expect(map.isAggregated)
        #expect(map.points.map(\.building) == ["ZED", "BUR"])
        #expect(map.points.map(\.assets) == [15, 15])
        #expect(map.points.map(\.flagged) == [1, 1])
        let svg = map.svg()!
        #expect(svg.contains("<title>BUR: 15 assets, 1 with findings</title>"))
        #expect(svg.components(separatedBy: "<circle").count - 1 == 2)
    }

    @Test func codesThatAreEqualTextsShareOneColorAndOneLabel() {
        // "Café" precomposed and with a combining accent: equal strings, so one building, as before.
        let assets = [
            Self.asset(1, building: "Caf\u{E9}", position: (37.0, -80.0)),
            Self.asset(2, building: "TOR", position: (37.1, -80.1)),
            Self.asset(3, building: "Cafe\u{301}", position: (37.2, -80.2)),
        ]
        let svg = AssetMap(assets: assets, flagged: [], buildings: nil).svg()!
        #expect(svg.contains("aria-label=\"Map of 3 assets in 2 buildings, 0 with findings (shown in red)\""))
        #expect(svg.components(separatedBy: "fill=\"#1f77b4\"").count - 1 == 2)
        #expect(svg.components(separatedBy: "fill=\"#2ca02c\"").count - 1 == 1)
        #expect(svg.components(separatedBy: "<text ").count - 1 == 2)
        #expect(svg.contains(">Caf\u{E9}</text>"))
        let aggregated = AssetMap(assets: assets, flagged: [3], buildings: nil, maximumPoints: 2)
        #expect(aggregated.points.map(\.assets) == [2, 1])
        #expect(aggregated.points.map(\.flagged) == [1, 0])
    }
}
