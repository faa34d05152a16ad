import Testing

@testable import StocktakeGenerator

@Suite struct NoiseStyleTests {
    @Test func scientificTagHasThreeSignificantDigits() {
        #expect(NoiseStyle.scientificTag(123_456) == "1.23E+05")
        #expect(NoiseStyle.scientificTag(77_246) == "7.72E+04")
        #expect(NoiseStyle.scientificTag(999_600) == "10.00E+05")
    }

    @Test func shortMACHasElevenHexDigits() {
        #expect(NoiseStyle.shortMAC(0x000B_862B_06E1) == "00:0b:86:2b:06:e")
    }

    @Test func macFormsAreTheFourAcceptedOnes() {
        var random = SeededRandom(seed: 1)
        let forms = Set((0..<100).map { _ in NoiseStyle.mac(0xAABB_CCDD_EEFF, random: &random) })
        #expect(forms == ["aa:bb:cc:dd:ee:ff", "AA-BB-CC-DD-EE-FF", "aabb.ccdd.eeff", "AABBCCDDEEFF"])
    }

    @Test func tagVariantsKeepTheDigits() {
        var random = SeededRandom(seed: 3)
        let forms = Set((0..<200).map { _ in NoiseStyle.tag(1_234, digits: 6, rate: 1, random: &random) })
        #expect(forms == ["VT-001234", "VT 001234", "vt001234", "001234.0", " 001234 "])
    }

    @Test func cnsVariantsKeepTheDigits() {
        var random = SeededRandom(seed: 3)
        let forms = Set((0..<200).map { _ in NoiseStyle.cns(1_234, digits: 6, rate: 1, random: &random) })
        #expect(forms == ["c001234", "C-001234", "C 001234", "001234", "C1234"])
    }
}
