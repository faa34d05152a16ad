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

    @Test func freeTextFieldsHaveIdsAndTheOthersNone() {
        let packed = PackedValues(PackedValuesTests.full())
        let texts: Set<CanonicalField> = [.model, .description, .building, .room, .mount, .custodian, .stockNumber]
        for field in CanonicalField.allCases {
            #expect((packed.textID(of: field) != nil) == texts.contains(field), "\(field)")
        }
        #expect(PackedValues().textID(of: .room) == -1)
        #expect(packed.textID(of: .model) == SharedTexts.shared.id(of: "AP-515"))
        // The serial is its own number, not an id.
        #expect(packed.serialCode == SerialCode(canonical: "CN0V43PKBN"))
        #expect(packed.serialCode.pooledID == nil && !packed.serialCode.isNone)
    }
}
