import Testing

@testable import StocktakeCore

@Suite("AssetMerger: which value wins")
struct AssetMergerTests {
    /// The sources of `fixture` (added in reconciliation order), the merger, and the sorted rows of the first asset.
    static func merge(_ fixture: ReconcileFixture) throws -> (merger: AssetMerger, members: [RecordReference]) {
        let sources = try fixture.sources()
        let graph = AssetGraph(sources: sources, fallbackIdentifiers: fixture.rules.fallbackIdentifiers)
        let merger = AssetMerger(sources: sources, precedence: fixture.rules.precedence)
        let members = graph.members[0].sorted { ($0.source, $0.record) < ($1.source, $1.record) }
        return (merger, members)
    }

    static let central = """
        VT Tag,CNS #,Serial Number,MAC Address,Model,Building,Room,Mount,Custodian,Description,Stock Number
        004512,C000123,CNF123,,AP-515,BUR,101,ceiling,jdoe,Access point,S-1
        """

    @Test func identityFieldsComeFromCentralFirstThenSightingsThenRegisters() throws {
        var fixture = ReconcileFixture(central: Self.central)
        fixture.sighting("survey.csv", "P-Tag,Serial,MAC,CNS #\n4512,CNG999,aa:bb:cc:dd:ee:01,C000777")
        fixture.sighting("controller.csv", "P-Tag,MAC\n4512,aa:bb:cc:dd:ee:02")
        fixture.register("cns_register.csv", "VT ID,C Number,MAC\n4512,C000888,aa:bb:cc:dd:ee:03")
        let (merger, members) = try Self.merge(fixture)
        let merged = merger.merge(members)
        #expect(merged.vtTag?.description == "004512")
        #expect(merged.cnsNumber?.description == "C000123")
        #expect(merged.serialNumber?.description == "CNF123")
        #expect(merged.macAddress?.description == "aa:bb:cc:dd:ee:01")
    }

    @Test func oneCheckingPassMergesAsTheFieldByFieldMergeAndFindsEveryDisagreement() throws {
        var fixture = ReconcileFixture(central: Self.central)
        fixture.sighting(
            "survey.csv",
            "P-Tag,Serial,MAC,Room,Model,Latitude,Longitude,Date\n4512,CNG999,aa:bb:cc:dd:ee:01,102,AP-515,"
                + "37.2,-80.4,2026-11-01")
        fixture.sighting("controller.csv", "P-Tag,MAC,Room,Date\n4512,aa:bb:cc:dd:ee:01,102,2026-11-03")
        fixture.register("cns_register.csv", "VT ID,C Number,Custodian\n4512,C000123,jdoe")
        let (merger, members) = try Self.merge(fixture)
        let (values, differing) = merger.merge(checking: members)
        #expect(values.values == merger.merge(members))
        for field in CanonicalField.allCases {
            #expect(
                (differing & AssetMerger.bit(field) != 0) == merger.differ(in: field, among: members),
                "\(field)")
        }
        // The serial and the room disagree; the MAC, CNS, model and custodian agree wherever they are given.
        #expect(differing & AssetMerger.bit(.serialNumber) != 0)
        #expect(differing & AssetMerger.bit(.room) != 0)
        #expect(differing & AssetMerger.bit(.macAddress) == 0)
        #expect(differing & AssetMerger.bit(.cnsNumber) == 0)
        #expect(differing & AssetMerger.bit(.custodian) == 0)
    }

    @Test func identityFieldsFallBackToTheFirstRegister() throws {
        var fixture = ReconcileFixture(central: "VT Tag\n004512")
        fixture.sighting("survey.csv", "P-Tag,Room\n4512,101")
        fixture.register("cns_register.csv", "VT ID,C Number\n4512,C000888")
        fixture.register("legacy.csv", "VT ID,C Number\n4512,C000999")
        let (merger, members) = try Self.merge(fixture)
        #expect(merger.merge(members).cnsNumber?.description == "C000888")
    }

    @Test func otherFieldsPreferSightingsThenRegistersThenCentral() throws {
        var fixture = ReconcileFixture(central: Self.central)
        fixture.sighting("survey_a.csv", "P-Tag,Room\n4512,205\n4512,207")
        fixture.sighting("survey_b.csv", "P-Tag,Room,Mount,Description\n4512,206,wall,")
        fixture.register("custodians.csv", "Asset Tag,Assigned To,Room,Model,Description\n4512,asmith,999,AP-635,AP")
        let (merger, members) = try Self.merge(fixture)
        let merged = merger.merge(members)
        #expect(merged.room == "205")
        #expect(merged.mount == "wall")
        #expect(merged.custodian == "asmith")
        #expect(merged.model == "AP-635")
        #expect(merged.description == "AP")
        #expect(merged.building == "BUR")
        #expect(merged.stockNumber == "S-1")
    }

    @Test func aFieldPrecedenceReordersSourcesForThatFieldOnly() throws {
        var fixture = ReconcileFixture(central: Self.central)
        fixture.sighting("survey_a.csv", "P-Tag,Room,Mount\n4512,205,wall")
        fixture.sighting("survey_b.csv", "P-Tag,Room,Mount\n4512,206,pole")
        fixture.register("custodians.csv", "Asset Tag,Assigned To,Room\n4512,asmith,999")
        fixture.rules.precedence[.room] = FieldPrecedence(["central"])
        fixture.rules.precedence[.custodian] = FieldPrecedence(["central", "custodians"])
        fixture.rules.precedence[.mount] = FieldPrecedence(["survey_b"])
        let (merger, members) = try Self.merge(fixture)
        let merged = merger.merge(members)
        #expect(merged.room == "101")
        #expect(merged.custodian == "jdoe")
        #expect(merged.mount == "pole")
        // Fields without a precedence keep the default order.
        #expect(merged.model == "AP-515")
        // Sources the precedence does not name follow in the default order: sightings, registers, central.
        fixture.rules.precedence[.room] = FieldPrecedence(["registers"])
        let (reordered, rows) = try Self.merge(fixture)
        #expect(reordered.merge(rows).room == "999")
        #expect(reordered.conflict(in: .room, among: rows)?.map(\.text) == ["999", "205", "206", "101"])
    }

    @Test func latitudeAndLongitudeComeTogetherFromOneRow() throws {
        var fixture = ReconcileFixture(central: "VT Tag,Latitude,Longitude\n004512,37.1,-80.1")
        fixture.sighting("survey_a.csv", "P-Tag,Lat\n4512,37.5")
        fixture.sighting("survey_b.csv", "P-Tag,Lng\n4512,-80.5")
        fixture.register("gps.csv", "Asset Tag,GPS\n4512,\"37.2296,-80.4139\"")
        let (merger, members) = try Self.merge(fixture)
        let merged = merger.merge(members)
        #expect(merged.latitude == 37.2296)
        #expect(merged.longitude == -80.4139)
    }

    @Test func theLatitudePrecedenceChoosesTheRowOfThePair() throws {
        var fixture = ReconcileFixture(central: "VT Tag,Latitude,Longitude\n004512,37.1,-80.1")
        fixture.sighting("survey_a.csv", "P-Tag,GPS\n4512,\"37.5,-80.5\"")
        fixture.rules.precedence[.latitude] = FieldPrecedence(["central"])
        let (merger, members) = try Self.merge(fixture)
        let merged = merger.merge(members)
        #expect(merged.latitude == 37.1)
        #expect(merged.longitude == -80.1)
    }

    @Test func lastSeenIsTheNewestSightingDateElseTheNewestOfAnySource() throws {
        var fixture = ReconcileFixture(central: "VT Tag,Last Inventory Date\n004512,2026-11-01")
        fixture.sighting("survey_a.csv", "P-Tag,Scanned At\n4512,3/5/2026\n4512,2026-01-02")
        fixture.sighting("survey_b.csv", "P-Tag,Scanned At\n4512,2025-12-31")
        fixture.register("billing.csv", "Asset Tag,Date\n4512,2026-10-01")
        let (merger, members) = try Self.merge(fixture)
        #expect(merger.merge(members).lastSeen?.description == "2026-03-05")

        var undated = ReconcileFixture(central: "VT Tag,Last Inventory Date\n004512,2025-01-01")
        undated.sighting("survey_a.csv", "P-Tag,Room\n4512,101")
        undated.register("billing.csv", "Asset Tag,Date\n4512,2026-10-01\n4512,2024-10-01")
        let (undatedMerger, undatedMembers) = try Self.merge(undated)
        #expect(undatedMerger.merge(undatedMembers).lastSeen?.description == "2026-10-01")
    }

    @Test func conflictListsDistinctValuesWinnerFirstWithTheirRows() throws {
        var fixture = ReconcileFixture(central: Self.central)
        fixture.sighting("survey_a.csv", "P-Tag,Room,Model\n4512,205,ap-515")
        fixture.sighting("survey_b.csv", "P-Tag,Room\n4512,101\n4512,205")
        fixture.register("custodians.csv", "Asset Tag,Room\n4512,300")
        let (merger, members) = try Self.merge(fixture)
        let room = try #require(merger.conflict(in: .room, among: members))
        #expect(room.map(\.text) == ["205", "101", "300"])
        #expect(
            room.map { $0.locations.map(\.description) } == [
                ["survey_a.csv:1", "survey_b.csv:2"], ["survey_b.csv:1", "central.csv:1"], ["custodians.csv:1"],
            ])
        // One distinct value (after normalization) is no conflict; neither is a field no row has.
        #expect(merger.conflict(in: .model, among: members) == nil)
        #expect(merger.conflict(in: .mount, among: members) == nil)
        #expect(merger.conflict(in: .latitude, among: members) == nil)

        fixture.rules.precedence[.room] = FieldPrecedence(["central"])
        let (central, rows) = try Self.merge(fixture)
        #expect(central.conflict(in: .room, among: rows)?.map(\.text) == ["101", "205", "300"])
        #expect(
            central.conflict(in: .room, among: rows)?.first?.locations.map(\.description) == [
                "central.csv:1", "survey_b.csv:1",
            ])
    }

    /// Reading one field of a row (whether it has a value, its text, whether two rows agree) gives what the row's
    /// whole values give, for every field: texts that are other Unicode forms of one another (two ids) agree, as
    /// the values' strings do, and an absent value agrees only with an absent one.
    @Test func oneFieldOfARowIsReadAsTheRowsValuesGiveIt() throws {
        var fixture = ReconcileFixture(central: Self.central)
        fixture.sighting(
            "survey.csv",
            "P-Tag,Serial,Room,Model,Description,Latitude,Longitude,Date\n"
                + "4512,CNF123,101,AP-515,Caf\u{E9} ceiling,37.2,-80.4,2026-11-01\n"
                + "4512,,102,ap-515,Cafe\u{301} ceiling,,,\n4512,CNG999,,,,37.2,-80.5,2026-11-02")
        let (merger, members) = try Self.merge(fixture)
        #expect(members.count == 4)
        for field in CanonicalField.allCases {
            for left in members {
                let values = merger.packed(left).values
                #expect(merger.has(field, in: left) == values.has(field), "\(field)")
                #expect(merger.text(field, of: left) == values.text(field), "\(field)")
                for right in members {
                    var one = AssetValues()
                    one.copy(field, from: values)
                    var other = AssetValues()
                    other.copy(field, from: merger.packed(right).values)
                    #expect(merger.same(field, left, right) == (one == other), "\(field)")
                }
            }
        }
        // The survey's two descriptions are one text in two forms: they agree, though their ids differ.
        let survey = members.filter { $0.source == 1 && merger.has(.description, in: $0) }
        #expect(survey.count == 2)
        #expect(
            merger.packed(survey[0]).description != merger.packed(survey[1]).description)
        #expect(merger.same(.description, survey[0], survey[1]))
    }

    @Test func valuesAndLocationsOfARecord() throws {
        var fixture = ReconcileFixture(central: Self.central)
        fixture.sighting("survey.csv", "P-Tag,Room\n\n4512,205")
        let (merger, _) = try Self.merge(fixture)
        let reference = RecordReference(source: 1, record: 0)
        #expect(merger.packed(reference).values.room == "205")
        #expect(merger.location(of: reference) == SourceLocation(file: "survey.csv", row: 1))
    }

    /// One tag on twenty thousand rows with different rooms (a filled-down tag column): listing the distinct rooms
    /// took 10 s in a debug build when each value was looked for among all earlier ones; now a few hundredths.
    @Test func thousandsOfDistinctValuesOnOneTagAreListedQuickly() throws {
        var central = "VT Tag,Room\n"
        for number in 0..<20_000 { central += "004512,R\(number)\n" }
        central += "VT-4512,R7\n"
        let (merger, members) = try Self.merge(ReconcileFixture(central: central))
        var room: [AssetMerger.FieldValue]?
        let elapsed = ContinuousClock().measure { room = merger.conflict(in: .room, among: members) }
        #expect(elapsed < .seconds(3))
        #expect(room?.count == 20_000)
        #expect(room?.first?.text == "R0")
        #expect(room?[7].locations.map(\.description) == ["central.csv:8", "central.csv:20001"])
    }
}
