import Testing

@testable import StocktakeSync

@Suite struct ContentHashTests {
    /// The published FNV-1a 64-bit test vectors.
    @Test func fnv1aGivesTheReferenceValues() {
        #expect(ContentHash.fnv1a64([]) == 0xcbf2_9ce4_8422_2325)
        #expect(ContentHash.fnv1a64(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(ContentHash.fnv1a64(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
    }

    @Test func hexHasSixteenDigitsWithLeadingZeros() {
        #expect(ContentHash.hex(0) == "0000000000000000")
        #expect(ContentHash.hex(0xAB) == "00000000000000ab")
        #expect(ContentHash.hex(.max) == "ffffffffffffffff")
    }

    /// The version a Google Sheets pull records keeps its form.
    @Test func googleSheetsVersionsKeepTheirForm() {
        #expect(GoogleSheetsProvider.fingerprint(Array("a".utf8)) == "fnv1a64:af63dc4c8601ec8c")
    }
}
