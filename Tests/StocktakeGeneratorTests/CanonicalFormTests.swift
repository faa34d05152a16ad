import Testing

@testable import StocktakeGenerator

@Suite struct CanonicalFormTests {
    @Test func identifiers() {
        #expect(CanonicalForm.tag(1_234, digits: 6) == "001234")
        #expect(CanonicalForm.tag(1_234_567, digits: 6) == "1234567")
        #expect(CanonicalForm.cns(42, digits: 6) == "C000042")
        #expect(CanonicalForm.mac(0x000B_8601_0AFF) == "00:0b:86:01:0a:ff")
    }

    @Test func degreesHaveSixDecimals() {
        #expect(CanonicalForm.degrees(37_229_600) == "37.229600")
        #expect(CanonicalForm.degrees(-80_413_900) == "-80.413900")
        #expect(CanonicalForm.degrees(-5) == "-0.000005")
    }
}
