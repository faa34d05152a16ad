import StocktakeCore
import Testing

struct VTTagTests {
    @Test(arguments: [
        ("001234", "001234"),
        ("1234", "001234"),
        ("  VT-1234.0 ", "001234"),
        ("VT-001234", "001234"),
        ("vt 1234", "001234"),
        ("VT001234", "001234"),
        ("Vt1234", "001234"),
        ("1234.00", "001234"),
        ("\t999999\r\n", "999999"),
        ("\u{A0}42\u{A0}", "000042"),
        ("0", "000000"),
        ("123456.0", "123456"),
    ])
    func acceptsAndPads(input: String, expected: String) {
        #expect(VTTag.normalize(input, digits: 6).value?.description == expected)
    }

    @Test(arguments: ["", "   ", "N/A", "na", "None", "-", "tbd", " TBD "])
    func placeholdersAreEmpty(input: String) {
        #expect(VTTag.normalize(input, digits: 6) == .empty)
    }

    @Test(arguments: [
        ("1.23E+05", "is in scientific notation (Excel reformatted it); type the full VT tag"),
        ("1.2e5", "is in scientific notation (Excel reformatted it); type the full VT tag"),
        ("1E5", "is in scientific notation (Excel reformatted it); type the full VT tag"),
        ("1234567", "has 7 digits; a VT tag has at most 6"),
        ("0012345", "has 7 digits; a VT tag has at most 6"),
        ("VT-1234567.0", "has 7 digits; a VT tag has at most 6"),
        ("12A456", "contains the character \"A\"; a VT tag is digits, optionally after VT"),
        ("12 3456", "contains a space; a VT tag is digits, optionally after VT"),
        ("-1234", "contains the character \"-\"; a VT tag is digits, optionally after VT"),
        ("VT--1234", "contains the character \"-\"; a VT tag is digits, optionally after VT"),
        ("P1234", "contains the character \"P\"; a VT tag is digits, optionally after VT"),
        ("1234.5", "has a decimal part; a VT tag is a whole number"),
        ("1234.", "ends with a decimal point; a VT tag is a whole number"),
        ("1234.0x", "contains the character \"x\"; a VT tag is digits, optionally after VT"),
        ("VT", "has no digits after the VT prefix"),
        ("VT-", "has no digits after the VT prefix"),
        ("12345678901234567890123", "has 23 digits; a VT tag has at most 6"),
    ])
    func rejectsWithReason(input: String, reason: String) {
        #expect(VTTag.normalize(input, digits: 6) == .invalid(reason: reason))
    }

    @Test func digitCountComesFromTheAccount() {
        #expect(VTTag.normalize("1234567", digits: 8).value?.description == "01234567")
        #expect(VTTag.normalize("123", digits: 2) == .invalid(reason: "has 3 digits; a VT tag has at most 2"))
        #expect(VTTag.normalize("1234567890123456789", digits: 19).value?.number == 1_234_567_890_123_456_789)
    }

    @Test func valueKeepsNumberAndDigits() {
        #expect(VTTag.normalize("VT-001234", digits: 6) == .value(VTTag(number: 1234, digits: 6)))
    }

    @Test func normalizesRawBytes() {
        let bytes: [UInt8] = Array(" vt-77.0 ".utf8)
        let result = bytes.withUnsafeBufferPointer { VTTag.normalize($0, digits: 6) }
        #expect(result == .value(VTTag(number: 77, digits: 6)))
    }

    @Test func descriptionDoesNotTruncateWideNumbers() {
        #expect(VTTag(number: 1_234_567, digits: 6).description == "1234567")
    }

    @Test func comparesByNumber() {
        let tags = [VTTag(number: 30, digits: 6), VTTag(number: 4, digits: 6), VTTag(number: 100, digits: 6)]
        #expect(tags.sorted().map(\.description) == ["000004", "000030", "000100"])
    }

    @Test func supportsUpToNineteenDigits() {
        #expect(VTTag.supportedDigits == 1...19)
        #expect(VTTag.normalize("9999999999999999999", digits: 19).value?.number == 9_999_999_999_999_999_999)
        #expect(VTTag.normalize("7", digits: 1).value?.number == 7)
    }
}
