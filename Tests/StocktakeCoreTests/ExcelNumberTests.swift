import Testing

@testable import StocktakeCore

struct ExcelNumberTests {
    static func value(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { ExcelNumber.value($0) }
    }

    static func isCanonical(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { ExcelNumber.isCanonicalInteger($0) }
    }

    @Test(arguments: [
        ("12976", "12976"), ("1234.0", "1234"), ("4.5E+5", "450000"), ("0.5", "0.5"), ("-3.25", "-3.25"),
        ("0.30000000000000004", "0.30000000000000004"), ("9007199254740992", "9007199254740992"),
        ("1E+16", "10000000000000000"), ("1.2345E-5", "0.000012345"), ("-0", "0"), ("1E+300", "1e+300"),
        ("123456789012345678", "123456789012345680"), ("2.5E-10", "2.5e-10"), ("1.5E+20", "150000000000000000000"),
        ("12.5E1", "125"),
    ])
    func writesTheShortestRoundTripText(stored: String, text: String) {
        #expect(Self.value(stored).map(ExcelNumber.text) == text)
    }

    @Test func readsOnlyDecimalNumbers() {
        #expect(Self.value("") == nil)
        #expect(Self.value("inf") == nil)
        #expect(Self.value("0x1p3") == nil)
        #expect(Self.value("1.5.2") == nil)
        #expect(Self.value("12 ") == nil)
        #expect(Self.value("-7") == -7)
    }

    @Test func knowsCanonicalIntegers() {
        #expect(Self.isCanonical("0"))
        #expect(Self.isCanonical("12976"))
        #expect(Self.isCanonical("-45"))
        #expect(!Self.isCanonical("012976"))
        #expect(!Self.isCanonical("-0"))
        #expect(!Self.isCanonical("1234.0"))
        #expect(!Self.isCanonical("1234567890123456"))
        #expect(!Self.isCanonical("-"))
        #expect(!Self.isCanonical(""))
    }
}
