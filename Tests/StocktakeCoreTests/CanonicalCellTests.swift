import Testing

@testable import StocktakeCore

@Suite struct CanonicalCellTests {
    private let reader = SourceReader(
        mapping: .builtIn, tagDigits: 6, cnsDigits: 6,
        buildings: BuildingTable([Building(code: "TORG", name: "Torgersen Hall")]))

    private func reading(_ text: String, _ target: ColumnTarget) -> Normalized<String> {
        Array(text.utf8).withUnsafeBufferPointer { CanonicalCell.reading($0, target: target, reader: reader) }
    }

    @Test func readsEachFieldInTheFormCleanedCSVShows() {
        #expect(reading(" VT-1234.0 ", .field(.vtTag)) == .value("001234"))
        #expect(reading("c 77", .field(.cnsNumber)) == .value("C000077"))
        #expect(reading("ab 12", .field(.serialNumber)) == .value("AB12"))
        #expect(reading("AABB.CCDD.EE01", .field(.macAddress)) == .value("aa:bb:cc:dd:ee:01"))
        #expect(reading("ap-515", .field(.model)) == .value("AP-515"))
        #expect(reading(" Spare AP ", .field(.description)) == .value("Spare AP"))
        #expect(reading("torgersen  hall", .field(.building)) == .value("TORG"))
        #expect(reading("b-12   west", .field(.room)) == .value("B-12 WEST"))
        #expect(reading("Ceiling", .field(.mount)) == .value("ceiling"))
        #expect(reading(" jdoe ", .field(.custodian)) == .value("jdoe"))
        #expect(reading("37.22960", .field(.latitude)) == .value("37.2296"))
        #expect(reading("-80.4139", .field(.longitude)) == .value("-80.4139"))
        #expect(reading("3/4/2026", .field(.lastSeen)) == .value("2026-03-04"))
        #expect(reading(" S-1 ", .field(.stockNumber)) == .value("S-1"))
        #expect(reading("(37.2296, -80.41390)", .position) == .value("37.2296,-80.4139"))
    }

    @Test func blanksAndPlaceholdersAreEmpty() {
        #expect(reading("  ", .field(.room)) == .empty)
        #expect(reading("N/A", .field(.room)) == .empty)
        #expect(reading("TBD", .field(.vtTag)) == .empty)
        #expect(reading("", .position) == .empty)
        #expect(reading("anything", .ignored) == .empty)
    }

    @Test func valuesThatCannotBeNormalizedAreInvalid() {
        #expect(reading("Nowhere Hall", .field(.building)) == .invalid(reason: "is not in the buildings table"))
        guard case .invalid = reading("zz:zz", .field(.macAddress)) else {
            Issue.record("an invalid MAC address was read as a value")
            return
        }
        guard case .invalid = reading("1.23E+05", .field(.vtTag)) else {
            Issue.record("a tag in scientific notation was read as a value")
            return
        }
    }

    @Test func withoutABuildingsTableABuildingIsUpperCasedText() {
        let plain = SourceReader(mapping: .builtIn)
        let result = Array("torg".utf8).withUnsafeBufferPointer {
            CanonicalCell.reading($0, target: .field(.building), reader: plain)
        }
        #expect(result == .value("TORG"))
    }

    @Test func mergedValuesTakeTheirCleanedText() {
        var values = AssetValues()
        values.vtTag = VTTag(number: 42, digits: 6)
        values.room = "B-12"
        values.latitude = 37.2296
        #expect(CanonicalCell.text(of: values, for: .field(.vtTag)) == "000042")
        #expect(CanonicalCell.text(of: values, for: .field(.room)) == "B-12")
        #expect(CanonicalCell.text(of: values, for: .field(.model)) == nil)
        #expect(CanonicalCell.text(of: values, for: .field(.latitude)) == "37.2296")
        // A position is written only with both coordinates.
        #expect(CanonicalCell.text(of: values, for: .position) == nil)
        values.longitude = -80.4139
        #expect(CanonicalCell.text(of: values, for: .position) == "37.2296,-80.4139")
        #expect(CanonicalCell.text(of: values, for: .ignored) == nil)
    }
}
