import StocktakeCore
import Testing

struct HeaderLayoutTests {
    func layout(_ header: [String], mapping: ColumnMapping = .builtIn) -> HeaderLayout {
        HeaderLayout(header: header, mapping: mapping)
    }

    @Test func mapsEachColumn() {
        let layout = layout(["VT Tag", "Notes", "MAC", "Room #"])
        #expect(layout.header == ["VT Tag", "Notes", "MAC", "Room #"])
        #expect(layout.targets == [.field(.vtTag), nil, .field(.macAddress), .field(.room)])
        #expect(layout.unmapped == ["Notes"])
        #expect(layout.notes == [])
        #expect(layout.width == 4)
    }

    @Test func trailingEmptyHeaderCellsAreDropped() {
        let layout = layout(["Tag", "Serial", "", "  ", "\t"])
        #expect(layout.header == ["Tag", "Serial"])
        #expect(layout.parsedHeader == ["Tag", "Serial", "", "  ", "\t"])
        #expect(layout.width == 2)
        #expect(layout.targets.count == 2)
        #expect(layout.unmapped == [])
    }

    @Test func emptyHeaderCellsInsideAreLabelledByPosition() {
        let layout = layout(["", "Tag", " ", "Model", ""])
        #expect(layout.header == ["", "Tag", " ", "Model"])
        #expect(layout.unmapped == ["(column 1)", "(column 3)"])
        #expect(layout.targets == [nil, .field(.vtTag), nil, .field(.model)])
    }

    @Test func labels() {
        #expect(HeaderLayout.label("  Serial # ", index: 0) == "Serial #")
        #expect(HeaderLayout.label("", index: 0) == "(column 1)")
        #expect(HeaderLayout.label(" ", index: 11) == "(column 12)")
    }

    @Test func unmappedNamesAreTrimmed() {
        #expect(layout(["Tag", " Notes  "]).unmapped == ["Notes"])
    }

    @Test func twoColumnsForOneFieldReadOnlyTheFirst() {
        let layout = layout(["Tag", "Serial", "VT ID", "Model"])
        #expect(layout.targets == [.field(.vtTag), .field(.serialNumber), nil, .field(.model)])
        #expect(layout.notes == ["Columns \"Tag\" and \"VT ID\" both hold vt_tag; only \"Tag\" is read."])
        #expect(layout.unmapped == [])
        #expect(layout.plan.map(\.column) == [0, 1, 3])
    }

    @Test func threeColumnsForOneFieldGiveTwoNotes() {
        let layout = layout(["Room", "Rm", "Room #"])
        #expect(layout.targets == [.field(.room), nil, nil])
        #expect(
            layout.notes == [
                "Columns \"Room\" and \"Rm\" both hold room; only \"Room\" is read.",
                "Columns \"Room\" and \"Room #\" both hold room; only \"Room\" is read.",
            ])
    }

    @Test func gpsColumnAfterALatitudeColumnIsNotRead() {
        let layout = layout(["Tag", "Lat", "GPS"])
        #expect(layout.targets == [.field(.vtTag), .field(.latitude), nil])
        #expect(layout.notes == ["Columns \"Lat\" and \"GPS\" both hold latitude; only \"Lat\" is read."])
    }

    @Test func longitudeColumnAfterAGPSColumnIsNotRead() {
        let layout = layout(["GPS Location", "Tag", "Lng"])
        #expect(layout.targets == [.position, .field(.vtTag), nil])
        #expect(
            layout.notes == ["Columns \"GPS Location\" and \"Lng\" both hold longitude; only \"GPS Location\" is read."]
        )
        #expect(layout.maps(.latitude))
        #expect(layout.maps(.longitude))
    }

    @Test func latitudeAndLongitudeColumnsTogether() {
        let layout = layout(["Lat", "Lon"])
        #expect(layout.targets == [.field(.latitude), .field(.longitude)])
        #expect(layout.notes == [])
    }

    @Test func hasIdentifier() {
        #expect(layout(["Model", "Room"]).hasIdentifier == false)
        #expect(layout(["Model", "GPS", "Date"]).hasIdentifier == false)
        #expect(layout(["Model", "MAC"]).hasIdentifier)
        #expect(layout(["CNS #"]).hasIdentifier)
        #expect(layout(["S/N"]).hasIdentifier)
        #expect(layout(["Asset Tag"]).hasIdentifier)
        #expect(layout([]).hasIdentifier == false)
        let ignoring = ColumnMapping.builtIn.adding(["Tag": .ignored])
        #expect(layout(["Tag", "Model"], mapping: ignoring).hasIdentifier == false)
    }

    @Test func mapsTellsWhichFieldsAreRead() {
        let layout = layout(["Tag", "Model", "Model Number"])
        #expect(layout.maps(.vtTag))
        #expect(layout.maps(.model))
        #expect(layout.maps(.serialNumber) == false)
    }

    @Test func planSkipsUnmappedAndIgnoredColumns() {
        let mapping = ColumnMapping.builtIn.adding(["Notes": .ignored, "Where": .position])
        let layout = layout(["Notes", "Tag", "Other", "Where", "MAC"], mapping: mapping)
        #expect(layout.targets == [.ignored, .field(.vtTag), nil, .position, .field(.macAddress)])
        #expect(layout.unmapped == ["Other"])
        #expect(layout.plan.map(\.column) == [1, 3, 4])
        #expect(layout.plan.map(\.target) == [.field(.vtTag), .position, .field(.macAddress)])
    }

    @Test func ignoredColumnsCanRepeat() {
        let mapping = ColumnMapping.builtIn.adding(["Notes": .ignored, "Comments": .ignored])
        let layout = layout(["Notes", "Comments"], mapping: mapping)
        #expect(layout.targets == [.ignored, .ignored])
        #expect(layout.notes == [])
    }
}
