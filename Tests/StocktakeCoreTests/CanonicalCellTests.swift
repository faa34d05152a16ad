import Testing

@testable import StocktakeCore

@Suite struct CanonicalCellTests {
    private let reader = SourceReader(
        mapping: .builtIn, tagDigits: 6, cnsDigits: 6,
        buildings: BuildingTable([Building(code: "TORG", name: "Torgersen Hall")]))

    /// The cell read into `target`: its kind and, for a value, its canonical text.
    private func reading(_ text: String, _ target: ColumnTarget, reader: SourceReader? = nil) -> Normalized<String> {
        var canonical: [UInt8] = []
        let kind = Array(text.utf8).withUnsafeBufferPointer {
            CanonicalCell.read($0, target: target, reader: reader ?? self.reader, into: &canonical)
        }
        switch kind {
        case .empty:
            #expect(canonical.isEmpty)
            return .empty
        case .value: return .value(String(decoding: canonical, as: UTF8.self))
        case .invalid:
            #expect(canonical.isEmpty)
            return .invalid(reason: "")
        }
    }

    /// The cell read by the field's own normalizer, as `SourceReader` reads it, in the text `cleaned.csv` shows.
    private func normalizerReading(_ text: String, _ field: CanonicalField) -> Normalized<String> {
        func form<Value>(_ result: Normalized<Value>, _ text: (Value) -> String) -> Normalized<String> {
            switch result {
            case .empty: .empty
            case .value(let value): .value(text(value))
            case .invalid: .invalid(reason: "")
            }
        }
        switch field {
        case .vtTag: return form(VTTag.normalize(text, digits: 6), \.description)
        case .cnsNumber: return form(CNSNumber.normalize(text, digits: 6), \.description)
        case .serialNumber: return form(SerialNumber.normalize(text), \.description)
        case .macAddress: return form(MACAddress.normalize(text), \.description)
        case .model: return FreeText.normalize(text, style: .upperCased)
        case .description, .custodian, .stockNumber: return FreeText.normalize(text, style: .trimmed)
        case .building: return form(reader.buildings!.normalize(text)) { $0 }
        case .room: return FreeText.normalize(text, style: .upperCasedCollapsingSpaces)
        case .mount: return FreeText.normalize(text, style: .lowerCased)
        case .latitude: return form(GeoPosition.normalizeLatitude(text), GeoPosition.text)
        case .longitude: return form(GeoPosition.normalizeLongitude(text), GeoPosition.text)
        case .lastSeen: return form(InventoryDate.normalize(text), \.description)
        case .cost: return form(UnitCost.normalize(text), \.description)
        }
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
        #expect(reading("$1,195.5", .field(.cost)) == .value("1195.50"))
        #expect(reading("(37.2296, -80.41390)", .position) == .value("37.2296,-80.4139"))
    }

    @Test func blanksAndPlaceholdersAreEmpty() {
        #expect(reading("  ", .field(.room)) == .empty)
        #expect(reading("N/A", .field(.room)) == .empty)
        #expect(reading("TBD", .field(.vtTag)) == .empty)
        #expect(reading("0000", .field(.serialNumber)) == .empty)
        #expect(reading("", .position) == .empty)
        #expect(reading("anything", .ignored) == .empty)
    }

    @Test func valuesThatCannotBeNormalizedAreInvalid() {
        #expect(reading("Nowhere Hall", .field(.building)) == .invalid(reason: ""))
        #expect(reading("zz:zz", .field(.macAddress)) == .invalid(reason: ""))
        #expect(reading("1.23E+05", .field(.vtTag)) == .invalid(reason: ""))
        #expect(reading("AB\u{7}12", .field(.serialNumber)) == .invalid(reason: ""))
        #expect(reading("37.2296", .position) == .invalid(reason: ""))
        #expect(reading("1.234,50", .field(.cost)) == .invalid(reason: ""))
    }

    /// A serial whose blanks, once removed, leave a placeholder or zeros is empty for the reader, so it is for the
    /// plan too: it was read as the value `NA` or `00`, which a push wrote over the cell and `fill` never filled.
    @Test func serialsThatAreEmptyOnceTheirBlanksGoAreEmpty() {
        for text in ["N A", "n a", "T B D", "0\u{A0}0", "0 0", "N/ A"] {
            #expect(reading(text, .field(.serialNumber)) == .empty, "\(text)")
            #expect(reading(text, .field(.serialNumber)) == normalizerReading(text, .serialNumber), "\(text)")
        }
        #expect(reading("cnf 123", .field(.serialNumber)) == .value("CNF123"))
        #expect(reading("ab\u{7}c", .field(.serialNumber)) == .invalid(reason: ""))
    }

    @Test func withoutABuildingsTableABuildingIsUpperCasedText() {
        #expect(reading("torg", .field(.building), reader: SourceReader(mapping: .builtIn)) == .value("TORG"))
    }

    /// Every field read as bytes gives what the field's normalizer gives, for text made of the pieces cells are
    /// made of (blanks, placeholders, case, no-break spaces, digits, separators, control characters).
    @Test func readsEveryFieldAsItsNormalizerDoes() {
        var generator = CSVTestRandomGenerator(seed: 20_261_125)
        let pieces = [
            " ", "  ", "\t", "\u{A0}", "a", "Z", "é", "0", "7", "12", "-", ".", ":", "/", ",", "N/A", "tbd", "vt",
            "C", "aabbccddee01", "37.2296", "2026-03-04", "3/4/26", "torgersen", " hall", "TORG", "\u{7}", "e5", "N",
            "A",
        ]
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            for field in CanonicalField.allCases {
                #expect(reading(text, .field(field)) == normalizerReading(text, field), "\(field) of \"\(text)\"")
            }
        }
    }

    @Test func mergedValuesTakeTheirCleanedText() {
        func text(_ values: AssetValues, _ target: ColumnTarget) -> String? {
            var text: [UInt8] = []
            let written = CanonicalCell.append(PackedValues(values), for: target, to: &text)
            #expect(written == !text.isEmpty)
            return written ? String(decoding: text, as: UTF8.self) : nil
        }
        var values = AssetValues()
        values.vtTag = VTTag(number: 42, digits: 6)
        values.room = "B-12"
        values.latitude = 37.2296
        #expect(text(values, .field(.vtTag)) == "000042")
        #expect(text(values, .field(.room)) == "B-12")
        #expect(text(values, .field(.model)) == nil)
        #expect(text(values, .field(.latitude)) == "37.2296")
        // A position is written only with both coordinates.
        #expect(text(values, .position) == nil)
        values.longitude = -80.4139
        #expect(text(values, .position) == "37.2296,-80.4139")
        #expect(text(values, .ignored) == nil)
        for field in CanonicalField.allCases {
            #expect(text(values, .field(field)) ?? "" == values.text(field), "\(field)")
        }
    }
}
