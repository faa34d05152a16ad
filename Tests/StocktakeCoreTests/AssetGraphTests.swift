import Testing

@testable import StocktakeCore

@Suite("AssetGraph: which rows are the same device")
struct AssetGraphTests {
    /// Three central assets with distinct serials, MACs and CNS numbers.
    static let central = """
        VT Tag,CNS #,Serial Number,MAC Address
        004512,C000123,CNF123,aa:bb:cc:dd:ee:01
        004513,C000124,CNF124,aa:bb:cc:dd:ee:02
        004514,C000125,CNF125,aa:bb:cc:dd:ee:03
        """

    /// The sources of `fixture`, in the order they were added (tests add them in reconciliation order).
    static func graph(
        _ fixture: ReconcileFixture, order: [CanonicalField] = [.serialNumber, .macAddress, .cnsNumber]
    ) throws -> AssetGraph {
        AssetGraph(sources: try fixture.sources(), fallbackIdentifiers: order)
    }

    static func reference(_ source: Int, _ record: Int) -> RecordReference {
        RecordReference(source: source, record: record)
    }

    static func tag(_ number: UInt64) -> VTTag {
        VTTag(number: number, digits: 6)
    }

    @Test func taggedRowsAreGroupedByTagAcrossFiles() throws {
        var fixture = ReconcileFixture(central: "VT Tag,Room\n004512,101\n004513,102")
        fixture.sighting("survey.csv", "P-Tag,Room\n4513,102\nVT-4512,101\n770001,1")
        fixture.register("property_tags.csv", "Inventory Number\n4512")
        let graph = try Self.graph(fixture)
        #expect(graph.count == 3)
        #expect(graph.tags == [Self.tag(4512), Self.tag(4513), Self.tag(770001)])
        #expect(Array(graph.members[0]) == [Self.reference(0, 0), Self.reference(1, 1), Self.reference(2, 0)])
        #expect(Array(graph.members[1]) == [Self.reference(0, 1), Self.reference(1, 0)])
        #expect(Array(graph.members[2]) == [Self.reference(1, 2)])
        #expect(graph.assetOfRecord == [[0, 1], [1, 0, 2], [0]])
        #expect(graph.unplaced.isEmpty)
    }

    @Test func taglessRowsJoinBySerialThenMACThenCNS() throws {
        var fixture = ReconcileFixture(central: Self.central)
        fixture.sighting(
            "controller.csv",
            """
            Serial #,Wired MAC,CNS #
            cnf123,,
            ,AA-BB-CC-DD-EE-02,
            ,,c-125
            NEW999,aabb.ccdd.ee03,
            """)
        let graph = try Self.graph(fixture)
        #expect(graph.count == 3)
        #expect(graph.assetOfRecord == [[0, 1, 2], [0, 1, 2, 2]])
        #expect(Array(graph.members[2]) == [Self.reference(0, 2), Self.reference(1, 2), Self.reference(1, 3)])
        #expect(graph.unplaced.isEmpty)
    }

    @Test func aJoinedRowAddsItsIdentifiersToTheAsset() throws {
        var fixture = ReconcileFixture(central: Self.central)
        fixture.sighting("controller.csv", "Serial #,Wired MAC\nCNF123,aa:bb:cc:dd:ee:02")
        let graph = try Self.graph(fixture)
        #expect(graph.assetOfRecord[1] == [0])
        let mac = try #require(MACAddress.normalize("aa:bb:cc:dd:ee:02").value)
        #expect(graph.macIndex[mac] == [0, 1])
        var values = AssetValues()
        values.macAddress = mac
        #expect(graph.assets(sharing: .macAddress, with: values) == [0, 1])
        #expect(graph.assets(sharing: .serialNumber, with: values) == [])
        #expect(graph.assets(sharing: .room, with: values) == [])
    }

    @Test func theNextIdentifierNarrowsASharedSerial() throws {
        var fixture = ReconcileFixture(
            central: """
                VT Tag,CNS #,Serial Number,MAC Address
                004512,C000123,CNF123,aa:bb:cc:dd:ee:01
                004513,C000124,CNF123,aa:bb:cc:dd:ee:02
                004514,C000125,CNF125,
                004515,C000126,CNF125,
                """)
        fixture.sighting(
            "controller.csv",
            """
            Serial #,Wired MAC,CNS #
            CNF123,aa:bb:cc:dd:ee:02,
            CNF125,,C000126
            """)
        let graph = try Self.graph(fixture)
        #expect(graph.assetOfRecord[1] == [1, 3])
        #expect(graph.unplaced.isEmpty)
    }

    @Test func aRowNothingDecidesIsUnplacedUnderItsFirstMatchingIdentifier() throws {
        var fixture = ReconcileFixture(
            central: """
                VT Tag,CNS #,Serial Number,MAC Address
                004512,C000123,CNF123,aa:bb:cc:dd:ee:01
                004513,C000124,CNF123,aa:bb:cc:dd:ee:01
                004514,C000125,CNF125,aa:bb:cc:dd:ee:03
                004515,C000126,CNF126,aa:bb:cc:dd:ee:03
                """)
        fixture.sighting(
            "controller.csv",
            """
            Serial #,Wired MAC,CNS #
            CNF123,,
            CNF123,aa:bb:cc:dd:ee:01,
            CNF123,aa:bb:cc:dd:ee:03,
            NEW999,aa:bb:cc:dd:ee:03,
            """)
        let graph = try Self.graph(fixture)
        #expect(graph.assetOfRecord[1] == [-1, -1, -1, -1])
        #expect(graph.count == 4)
        #expect(graph.unplaced.map(\.reference) == (0..<4).map { Self.reference(1, $0) })
        #expect(graph.unplaced.map(\.field) == [.serialNumber, .serialNumber, .serialNumber, .macAddress])
        // A MAC matching assets outside the serial's candidates does not narrow them.
        #expect(graph.unplaced.map(\.assets) == [[0, 1], [0, 1], [0, 1], [2, 3]])
        // Unplaced rows add nothing to the indexes.
        let serial = try #require(SerialNumber(canonical: "NEW999"))
        #expect(graph.serialIndex[serial] == nil)
    }

    @Test func aTaglessRowThatMatchesNothingStartsATaglessAssetLaterRowsJoin() throws {
        var fixture = ReconcileFixture(central: Self.central)
        fixture.sighting("controller.csv", "Serial #,Wired MAC\nZZZ999,aa:bb:cc:00:00:09\nYYY888,")
        fixture.sighting("receiving.csv", "Serial No\nzzz999")
        fixture.register("billing.csv", "MAC\nAA:BB:CC:00:00:09\nAA:BB:CC:00:00:0A")
        let graph = try Self.graph(fixture)
        #expect(graph.count == 6)
        #expect(graph.tags == [Self.tag(4512), Self.tag(4513), Self.tag(4514), nil, nil, nil])
        #expect(graph.assetOfRecord == [[0, 1, 2], [3, 4], [3], [3, 5]])
        #expect(Array(graph.members[3]) == [Self.reference(1, 0), Self.reference(2, 0), Self.reference(3, 0)])
    }

    @Test func taggedRowsOfEveryFileArePlacedBeforeTaglessRows() throws {
        var fixture = ReconcileFixture(central: Self.central)
        fixture.sighting("controller.csv", "Serial #,Wired MAC\nCNF777,")
        fixture.register("property_tags.csv", "Inventory Number,Serial\n880002,CNF777")
        let graph = try Self.graph(fixture)
        #expect(graph.tags == [Self.tag(4512), Self.tag(4513), Self.tag(4514), Self.tag(880002)])
        #expect(graph.assetOfRecord[1] == [3])
        // The tag-less controller row joined after the register row, but rows are listed in source order.
        #expect(Array(graph.members[3]) == [Self.reference(1, 0), Self.reference(2, 0)])
    }

    @Test func reorderingTheFallbackIdentifiersChangesWhichAssetAConflictingRowJoins() throws {
        var fixture = ReconcileFixture(central: Self.central)
        fixture.sighting(
            "controller.csv",
            """
            Serial #,Wired MAC,CNS #
            CNF123,aa:bb:cc:dd:ee:02,C000125
            """)
        #expect(try Self.graph(fixture).assetOfRecord[1] == [0])
        #expect(try Self.graph(fixture, order: [.macAddress, .serialNumber, .cnsNumber]).assetOfRecord[1] == [1])
        #expect(try Self.graph(fixture, order: [.cnsNumber, .serialNumber, .macAddress]).assetOfRecord[1] == [2])
        // An identifier left out of the order never joins: the row starts its own tag-less asset.
        let macOnly = try Self.graph(fixture, order: [.macAddress])
        #expect(macOnly.assetOfRecord[1] == [1])
        let unordered = try Self.graph(fixture, order: [])
        #expect(unordered.assetOfRecord[1] == [3])
        #expect(unordered.tags.last == .some(nil))
    }

    @Test func indexListsStayAscendingAndHoldEachAssetOnce() throws {
        var fixture = ReconcileFixture(
            central: "VT Tag,Serial Number\n004512,CNF1\n004513,CNF2\n004514,CNF1\n004513,CNF1")
        fixture.sighting("survey.csv", "P-Tag,Serial\n4514,CNF2\n4512,CNF2\n4512,CNF1")
        let graph = try Self.graph(fixture)
        #expect(graph.serialIndex[try #require(SerialNumber(canonical: "CNF1"))] == [0, 1, 2])
        #expect(graph.serialIndex[try #require(SerialNumber(canonical: "CNF2"))] == [0, 1, 2])
    }

    /// Twenty thousand assets sharing one junk serial: the graph took 13 s in a debug build when each new asset was
    /// looked for in the whole list; it now takes a few hundredths of a second.
    @Test func thousandsOfAssetsSharingOneSerialAreIndexedQuickly() throws {
        var central = "VT Tag,Serial\n"
        for number in 100_000..<120_000 { central += "\(number),UNKNOWN\n" }
        var fixture = ReconcileFixture(central: central)
        fixture.sighting("controller.csv", "Serial #,Wired MAC\nUNKNOWN,aa:bb:cc:dd:ee:01")
        let sources = try fixture.sources()
        var graph: AssetGraph?
        let elapsed = ContinuousClock().measure {
            graph = AssetGraph(sources: sources, fallbackIdentifiers: [.serialNumber, .macAddress])
        }
        #expect(elapsed < .seconds(3))
        let serial = try #require(SerialNumber(canonical: "UNKNOWN"))
        #expect(graph?.serialIndex[serial] == Array(0..<20_000))
        #expect(graph?.unplaced.count == 1)
        #expect(graph?.unplaced.first?.assets.count == 20_000)
    }

    /// An account large enough that its tables outgrow the processor's cache, so that identification fetches table
    /// slots and rows ahead (`IntegerTable.prefetch(_:)`): rows in shuffled order still join their own assets.
    @Test func aLargeAccountInShuffledFilesJoinsEveryRowToItsAsset() throws {
        let count = 50_000
        var random = SeededRandom(seed: 7)
        func serial(_ asset: Int) -> String { "SN\(100_000 + asset)" }
        func mac(_ asset: Int) -> String {
            let value = 0xA0_0000 + asset
            return (0..<6).map { index in
                let byte = String((value >> (8 * (5 - index))) & 0xFF, radix: 16)
                return byte.count == 1 ? "0" + byte : byte
            }.joined(separator: ":")
        }
        var central = "VT Tag,CNS #,Serial Number,MAC Address\n"
        for asset in 0..<count {
            central += "\(100_000 + asset),C\(200_000 + asset),\(serial(asset)),\(mac(asset))\n"
        }
        var fixture = ReconcileFixture(central: central)
        // Tag-less rows, joined by serial (even assets) or by MAC (odd ones), in shuffled order.
        let sighted = Array(0..<count).shuffled(using: &random)
        fixture.sighting(
            "controller.csv",
            "Serial #,Wired MAC\n"
                + sighted.map { $0 % 2 == 0 ? "\(serial($0))," : ",\(mac($0))" }.joined(separator: "\n"))
        // Tagged rows of a register, in another order, and one tag no other file has.
        let registered = Array(0..<count).shuffled(using: &random)
        fixture.register(
            "property_tags.csv",
            "Inventory Number\n" + registered.map { "\(100_000 + $0)" }.joined(separator: "\n") + "\n999999")
        let graph = try Self.graph(fixture)
        #expect(graph.count == count + 1)
        #expect(graph.unplaced.isEmpty)
        #expect(graph.assetOfRecord[0] == (0..<count).map(Int32.init))
        #expect(graph.assetOfRecord[1] == sighted.map(Int32.init))
        #expect(graph.assetOfRecord[2] == registered.map(Int32.init) + [Int32(count)])
        let members = (0..<count).map { Array(graph.members[$0]) }
        let sightingRow = Dictionary(uniqueKeysWithValues: sighted.enumerated().map { ($1, $0) })
        let registerRow = Dictionary(uniqueKeysWithValues: registered.enumerated().map { ($1, $0) })
        #expect(
            members
                == (0..<count).map { asset in
                    [
                        Self.reference(0, asset), Self.reference(1, sightingRow[asset]!),
                        Self.reference(2, registerRow[asset]!),
                    ]
                })
    }
}
