import Testing

@testable import StocktakeCore

struct ColumnMappingTests {
    static let synonyms: [(String, ColumnTarget)] = [
        ("VT Tag", .field(.vtTag)), ("VT ID", .field(.vtTag)), ("VT Number", .field(.vtTag)),
        ("P-Tag", .field(.vtTag)), ("PTag", .field(.vtTag)), ("Property Tag", .field(.vtTag)),
        ("Inventory Number", .field(.vtTag)), ("Inventory #", .field(.vtTag)), ("Inventory No", .field(.vtTag)),
        ("Asset ID", .field(.vtTag)), ("Asset Tag", .field(.vtTag)), ("Tag", .field(.vtTag)),
        ("Tag No", .field(.vtTag)), ("Tag Number", .field(.vtTag)),
        ("CNS", .field(.cnsNumber)), ("CNS Number", .field(.cnsNumber)), ("CNS #", .field(.cnsNumber)),
        ("CNS No", .field(.cnsNumber)), ("C Number", .field(.cnsNumber)), ("C #", .field(.cnsNumber)),
        ("Serial", .field(.serialNumber)), ("Serial Number", .field(.serialNumber)),
        ("Serial #", .field(.serialNumber)), ("Serial No", .field(.serialNumber)), ("S/N", .field(.serialNumber)),
        ("SN", .field(.serialNumber)),
        ("MAC", .field(.macAddress)), ("MAC Address", .field(.macAddress)), ("MAC Addr", .field(.macAddress)),
        ("Wired MAC", .field(.macAddress)), ("Wired MAC Address", .field(.macAddress)),
        ("Ethernet MAC", .field(.macAddress)),
        ("Model", .field(.model)), ("Model Number", .field(.model)), ("Model #", .field(.model)),
        ("Part Number", .field(.model)), ("AP Type", .field(.model)),
        ("Description", .field(.description)), ("Descr", .field(.description)), ("Desc", .field(.description)),
        ("Item Description", .field(.description)),
        ("Building", .field(.building)), ("Bldg", .field(.building)), ("Bldg Code", .field(.building)),
        ("Building Abbreviation", .field(.building)), ("Building Abbrev", .field(.building)),
        ("Building Name", .field(.building)),
        ("Room", .field(.room)), ("Room Number", .field(.room)), ("Room #", .field(.room)), ("Rm", .field(.room)),
        ("Mount", .field(.mount)), ("Mounting", .field(.mount)), ("Mount Type", .field(.mount)),
        ("Custodian", .field(.custodian)), ("Custodian ID", .field(.custodian)),
        ("Custodian PID", .field(.custodian)), ("Assigned To", .field(.custodian)), ("PID", .field(.custodian)),
        ("Latitude", .field(.latitude)), ("Lat", .field(.latitude)),
        ("Longitude", .field(.longitude)), ("Lon", .field(.longitude)), ("Long", .field(.longitude)),
        ("Lng", .field(.longitude)),
        ("GPS", .position), ("GPS Location", .position), ("Coordinates", .position),
        ("Last Seen", .field(.lastSeen)), ("Scanned At", .field(.lastSeen)), ("Scan Date", .field(.lastSeen)),
        ("Date", .field(.lastSeen)), ("Last Inventory Date", .field(.lastSeen)),
        ("Last Inv Date", .field(.lastSeen)), ("Received", .field(.lastSeen)),
        ("Stock Number", .field(.stockNumber)), ("Stock #", .field(.stockNumber)),
        ("Stock No", .field(.stockNumber)),
        ("Unit Cost", .field(.cost)), ("Cost", .field(.cost)), ("Amount", .field(.cost)), ("Price", .field(.cost)),
        ("Unit Price", .field(.cost)),
    ]

    /// An ASCII header's key made from its bytes is the key the Unicode path makes; a header with any other byte
    /// takes the Unicode path.
    @Test func anASCIIHeadersKeyIsTheUnicodeKey() {
        var headers = Self.synonyms.map(\.0) + (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        headers += ["", "  Serial #  ", "MAC_Address", "Bldg-Code(2)", "A\tB\r\nC", "x=1+2", "ÄSSET TAG", "Zoë"]
        // Seeded, so that a header that fails fails again.
        var generator = CSVTestRandomGenerator(seed: 0x5EED_0C01)
        for _ in 0..<500 {
            headers.append(
                String(
                    (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                        Character(UnicodeScalar(UInt8.random(in: 0...127, using: &generator)))
                    }))
        }
        for header in headers {
            var copy = header
            let fromBytes = copy.withUTF8 { ColumnMapping.asciiKey($0) }
            if header.utf8.allSatisfy({ $0 < 0x80 }) {
                #expect(fromBytes == ColumnMapping.unicodeKey(header), "\(Array(header.utf8))")
            } else {
                #expect(fromBytes == nil)
            }
            #expect(ColumnMapping.key(header) == ColumnMapping.unicodeKey(header))
        }
    }

    @Test(arguments: synonyms)
    func everyDocumentedSynonymMapsToItsField(header: String, target: ColumnTarget) {
        #expect(ColumnMapping.builtIn.target(forHeader: header) == target)
        #expect(ColumnMapping.builtIn.target(forHeader: header.uppercased()) == target)
        #expect(ColumnMapping.builtIn.target(forHeader: "  " + header.lowercased() + " ") == target)
    }

    @Test(arguments: CanonicalField.allCases)
    func canonicalNamesMapToThemselves(field: CanonicalField) {
        #expect(ColumnMapping.builtIn.target(forHeader: field.rawValue) == .field(field))
        #expect(ColumnMapping.builtIn.target(forHeader: field.rawValue.uppercased()) == .field(field))
    }

    @Test(arguments: [
        ("CNS #", "cns"),
        ("TAG_NO", "tagno"),
        ("C.N.S.", "cns"),
        ("  Serial   Number ", "serialnumber"),
        ("S/N", "sn"),
        ("Room 2", "room2"),
        ("Bâtiment", "bâtiment"),
        ("#", ""),
        ("", ""),
    ])
    func keyKeepsOnlyLowerCaseLettersAndDigits(header: String, key: String) {
        #expect(ColumnMapping.key(header) == key)
    }

    @Test(arguments: ["Notes", "Asset #", "Location", "", "(column 3)", "Serials"])
    func unknownHeadersAreUnmapped(header: String) {
        #expect(ColumnMapping.builtIn.target(forHeader: header) == nil)
    }

    @Test func additionsAddAndOverrideByKey() {
        let mapping = ColumnMapping.builtIn.adding([
            "asset-#": .field(.vtTag),
            "TAG": .ignored,
            "Coordinates (WGS84)": .position,
        ])
        #expect(mapping.target(forHeader: "Asset #") == .field(.vtTag))
        #expect(mapping.target(forHeader: "Tag") == .ignored)
        #expect(mapping.target(forHeader: "t.a.g") == .ignored)
        #expect(mapping.target(forHeader: "coordinates wgs84") == .position)
        #expect(mapping.target(forHeader: "Serial") == .field(.serialNumber))
        // The built-in mapping itself is unchanged.
        #expect(ColumnMapping.builtIn.target(forHeader: "Tag") == .field(.vtTag))
        #expect(ColumnMapping.builtIn.target(forHeader: "Asset #") == nil)
    }

    @Test func laterAdditionsWin() {
        let mapping = ColumnMapping.builtIn.adding(["Notes": .field(.description)]).adding(["notes": .ignored])
        #expect(mapping.target(forHeader: "Notes") == .ignored)
    }
}
