import StocktakeCore
import Testing

struct ColumnTargetTests {
    @Test(arguments: CanonicalField.allCases)
    func canonicalNamesAreFields(field: CanonicalField) {
        #expect(ColumnTarget(mappingName: field.rawValue) == .field(field))
        #expect(ColumnTarget(mappingName: " " + field.rawValue.uppercased() + "\t") == .field(field))
    }

    @Test(arguments: ["gps", "GPS", "position", " latitude,longitude "])
    func positionNames(name: String) {
        #expect(ColumnTarget(mappingName: name) == .position)
    }

    @Test(arguments: ["ignore", "Ignored", "-", "", "   "])
    func ignoreNames(name: String) {
        #expect(ColumnTarget(mappingName: name) == .ignored)
    }

    @Test(arguments: ["tag", "VT Tag", "vt-tag", "lat", "skip", "latitude, longitude"])
    func otherNamesAreRejected(name: String) {
        #expect(ColumnTarget(mappingName: name) == nil)
    }

    @Test func descriptions() {
        #expect(ColumnTarget.field(.lastSeen).description == "last_seen")
        #expect(ColumnTarget.position.description == "latitude+longitude")
        #expect(ColumnTarget.ignored.description == "(ignored)")
    }

    @Test func fieldsFilled() {
        #expect(ColumnTarget.field(.macAddress).fields == [.macAddress])
        #expect(ColumnTarget.position.fields == [.latitude, .longitude])
        #expect(ColumnTarget.ignored.fields == [])
    }
}
