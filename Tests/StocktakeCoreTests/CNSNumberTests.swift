import StocktakeCore
import Testing

struct CNSNumberTests {
    @Test(arguments: [
        ("C000123", "C000123"),
        ("c-123", "C000123"),
        ("123.0", "C000123"),
        ("123", "C000123"),
        ("C 123", "C000123"),
        ("  c123  ", "C000123"),
        ("C-000123.00", "C000123"),
        ("999999", "C999999"),
    ])
    func acceptsAndPads(input: String, expected: String) {
        #expect(CNSNumber.normalize(input, digits: 6).value?.description == expected)
    }

    @Test(arguments: ["", "  ", "N/A", "none", "-", "TBD"])
    func placeholdersAreEmpty(input: String) {
        #expect(CNSNumber.normalize(input, digits: 6) == .empty)
    }

    @Test(arguments: [
        ("1.23E+05", "is in scientific notation (Excel reformatted it); type the full CNS number"),
        ("C1234567", "has 7 digits; a CNS number has at most 6"),
        ("C12X4", "contains the character \"X\"; a CNS number is C followed by digits"),
        ("CNS123", "contains the character \"N\"; a CNS number is C followed by digits"),
        ("C--123", "contains the character \"-\"; a CNS number is C followed by digits"),
        ("-123", "contains the character \"-\"; a CNS number is C followed by digits"),
        ("C", "has no digits after the C prefix"),
        ("C123.4", "has a decimal part; a CNS number is a whole number"),
    ])
    func rejectsWithReason(input: String, reason: String) {
        #expect(CNSNumber.normalize(input, digits: 6) == .invalid(reason: reason))
    }

    @Test func valueKeepsNumberAndDigits() {
        #expect(CNSNumber.normalize("c-123", digits: 6) == .value(CNSNumber(number: 123, digits: 6)))
        #expect(CNSNumber.normalize("c-123", digits: 4).value?.description == "C0123")
    }

    @Test func comparesByNumber() {
        #expect(CNSNumber(number: 9, digits: 6) < CNSNumber(number: 10, digits: 6))
        #expect(!(CNSNumber(number: 10, digits: 6) < CNSNumber(number: 9, digits: 6)))
    }

    @Test func supportsUpToNineteenDigits() {
        #expect(CNSNumber.supportedDigits == 1...19)
        #expect(CNSNumber.normalize("9999999999999999999", digits: 19).value?.number == 9_999_999_999_999_999_999)
        #expect(CNSNumber.normalize("7", digits: 1).value?.number == 7)
    }
}
