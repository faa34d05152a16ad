import Testing

@testable import StocktakeCore

struct PackedValuesTests {
    static func full() -> AssetValues {
        var values = AssetValues()
        values.vtTag = VTTag(number: 9_999_999_999_999_999_999, digits: 19)
        values.cnsNumber = CNSNumber(number: 0, digits: 6)
        values.serialNumber = SerialNumber(canonical: "CN0V43PKBN")
        values.macAddress = MACAddress(value: 0xFFFF_FFFF_FFFE)
        values.model = "AP-515"
        values.description = "Aruba AP-515 access point, ceiling"
        values.building = "ABH"
        values.room = ""
        values.mount = "ceiling"
        values.custodian = "jharlan"
        values.latitude = -0.0
        values.longitude = -180
        values.lastSeen = InventoryDate(daysSinceEpoch: -719_162)
        values.stockNumber = "NIS-AP515"
        return values
    }

    @Test func everyFieldComesBackAsItWasPut() {
        let values = Self.full()
        #expect(PackedValues(values).values == values)
        #expect(PackedValues(values).values.latitude?.sign == .minus)
        #expect(PackedValues(AssetValues()).values == AssetValues())
        for field in CanonicalField.allCases {
            var one = AssetValues()
            one.copy(field, from: values)
            #expect(PackedValues(one).values == one, "\(field)")
            #expect(PackedValues(one).hasIdentifier == one.hasIdentifier, "\(field)")
        }
    }

    @Test func aRecordIsSmallAndItsValuesCanBeSet() {
        // The unit cost (Int64 cents) and the serial's code (8 bytes, where its id was 4) made it 104 bytes; rows
        // are kept in `SourceRows`, which keeps only the fields a file fills.
        #expect(MemoryLayout<SourceRecord>.stride <= 104)
        var record = SourceRecord(row: 3, line: 4, values: AssetValues())
        record.values = Self.full()
        #expect(record.values == Self.full())
        record.values.vtTag = nil
        #expect(record.values.vtTag == nil)
        #expect(record.values.serialNumber == Self.full().serialNumber)
        #expect(record.row == 3 && record.line == 4)
    }
}
