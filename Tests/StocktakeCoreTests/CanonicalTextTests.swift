import Testing

@testable import StocktakeCore

@Suite struct CanonicalTextTests {
    private func text(_ write: (inout [UInt8]) -> Void) -> String {
        var output: [UInt8] = []
        write(&output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Writes many values and a comma after each, through the generic writers, as `CleanedTable` does.
    private static func writeMany<Output: ByteSink & ~Copyable>(to output: inout Output) {
        for index in 0..<2_000 {
            CanonicalText.append(CNSNumber(number: UInt64(index * 7_919), digits: 6), to: &output)
            output.append(ASCII.comma)
            CanonicalText.append(MACAddress(value: UInt64(index) &* 0x9E37_79B9_7F4A), to: &output)
            output.append(ASCII.comma)
            CanonicalText.append(InventoryDate(daysSinceEpoch: Int32(index * 13)), to: &output)
            output.append(ASCII.comma)
        }
    }

    @Test func writesIntoAByteBufferAsIntoAnArrayAcrossItsGrowth() {
        var array: [UInt8] = []
        Self.writeMany(to: &array)
        var buffer = ByteBuffer()
        Self.writeMany(to: &buffer)
        #expect(buffer.bytes == array)
    }

    @Test func writesPaddedNumbersAsTheIdentifiersDescribeThemselves() {
        var generator = CSVTestRandomGenerator(seed: 20_261_126)
        for digits in 1...19 {
            for number in [0, 1, 9, 10, UInt64.random(in: 0...9_999_999_999_999_999_999, using: &generator)] {
                let tag = VTTag(number: number, digits: digits)
                let cns = CNSNumber(number: number, digits: digits)
                #expect(text { CanonicalText.append(tag, to: &$0) } == tag.description)
                #expect(text { CanonicalText.append(cns, to: &$0) } == cns.description)
            }
        }
        #expect(text { CanonicalText.append(UInt64.max, digits: 1, to: &$0) } == String(UInt64.max))
    }

    @Test func writesMACAddressesAndDatesAsTheyDescribeThemselves() {
        var generator = CSVTestRandomGenerator(seed: 20_261_127)
        for _ in 0..<1000 {
            let address = MACAddress(value: generator.next())
            #expect(text { CanonicalText.append(address, to: &$0) } == address.description)
        }
        for days in stride(from: -719_162, through: 2_932_896, by: 997) {
            let date = InventoryDate(daysSinceEpoch: Int32(days))
            #expect(text { CanonicalText.append(date, to: &$0) } == date.description)
        }
    }

    @Test func writesCoordinatesAsGeoPositionDoes() {
        var generator = CSVTestRandomGenerator(seed: 20_261_128)
        var samples: [Double] = [0, -0.0, 1, -1, 37, 37.2296, -80.4139, 0.1, 0.00001, -0.000123, 1e-7, 180, -90.5]
        for _ in 0..<2000 {
            samples.append(Double.random(in: -180...180, using: &generator))
            samples.append(Double.random(in: -0.001...0.001, using: &generator))
            // Coordinates as sources write them, with six decimals.
            samples.append((Double.random(in: -180...180, using: &generator) * 1e6).rounded() / 1e6)
        }
        for degrees in samples {
            #expect(text { CanonicalText.append(degrees: degrees, to: &$0) } == GeoPosition.text(degrees), "\(degrees)")
        }
        #expect(
            text { CanonicalText.append(latitude: 37.2296, longitude: -80.4139, to: &$0) } == "37.2296,-80.4139")
    }

    @Test func writesEachFieldOfMergedValuesAsTheirText() {
        var values = AssetValues()
        values.vtTag = VTTag(number: 42, digits: 6)
        values.cnsNumber = CNSNumber(number: 7, digits: 6)
        values.serialNumber = SerialNumber(canonical: "AB12")
        values.macAddress = MACAddress(value: 0xAABB_CCDD_EE01)
        values.model = "AP-515"
        values.description = "Spare, \"new\""
        values.building = "TORG"
        values.room = "B-12"
        values.mount = "ceiling"
        values.custodian = "=cmd()"
        values.latitude = 37.2296
        values.longitude = -80.4139
        values.lastSeen = InventoryDate(year: 2026, month: 3, day: 4)
        values.stockNumber = "S-1"
        values.cost = UnitCost(cents: 129_999)
        let packed = PackedValues(values)
        for field in CanonicalField.allCases {
            #expect(text { CanonicalText.append(field, of: packed, to: &$0) } == values.text(field), "\(field)")
            #expect(text { CanonicalText.append(field, of: PackedValues(), to: &$0) } == "", "\(field)")
        }
    }
}
