import Testing

@testable import StocktakeCore

@Suite("PackedValues+Fields: one field at a time, as the whole values give it")
struct PackedValuesFieldsTests {
    /// Each field comes back alone as it was packed, into empty values or over others (which it leaves as they are).
    @Test func oneFieldComesBackAsItWasPacked() {
        let values = PackedValuesTests.full()
        var emptyText = AssetValues()
        emptyText.model = ""
        for whole in [values, AssetValues(), emptyText] {
            let packed = PackedValues(whole)
            for field in CanonicalField.allCases {
                var expected = AssetValues()
                expected.copy(field, from: whole)
                #expect(packed.only(field) == expected, "\(field)")
                var kept = values
                packed.copy(field, into: &kept)
                var expectedKept = values
                expectedKept.copy(field, from: whole)
                #expect(kept == expectedKept, "\(field)")
            }
        }
    }

    /// Fields kept as text have keys (a free text its id, the serial its code), equal for equal bytes and apart
    /// from an empty field's; the other fields have none.
    @Test func textFieldsHaveKeysAndTheOthersNone() {
        let packed = PackedValues(PackedValuesTests.full())
        let texts: Set<CanonicalField> = [
            .serialNumber, .model, .description, .building, .room, .mount, .custodian, .stockNumber,
        ]
        for field in CanonicalField.allCases {
            #expect((packed.textKey(of: field) != nil) == texts.contains(field), "\(field)")
            if texts.contains(field) {
                #expect(packed.textKey(of: field) == PackedValues(PackedValuesTests.full()).textKey(of: field))
                #expect(packed.textKey(of: field) != PackedValues().textKey(of: field), "\(field)")
            }
        }
        #expect(packed.textKey(of: .model) == UInt64(SharedTexts.shared.id(of: "AP-515")))
        // The serial is its own number, not an id.
        #expect(packed.serialCode == SerialCode(canonical: "CN0V43PKBN"))
        #expect(packed.serialCode.pooledID == nil && !packed.serialCode.isNone)
    }
}
