import Testing

@testable import StocktakeCore

/// The digit part of VT tags and CNS numbers. A cell of digits alone is read by a short path of its own; these tests
/// hold it to what the full reading gives at every boundary it has.
struct DigitIdentifierTests {
    /// Reads `text` as a VT tag's digits would be read, with `digits` digits configured.
    private func parse(_ text: String, digits: Int) -> Normalized<UInt64> {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            DigitIdentifier.parse(
                cell: UnsafeBufferPointer(buffer), prefix: "vt", digits: digits, kind: "VT tag",
                shape: "a VT tag is digits, optionally after VT")
        }
    }

    /// Every digit setting against digit strings of every length from 1 to 20 (with leading zeros, and the largest
    /// number of that length): the number when there are no more digits than the setting, else the sentence naming
    /// the count; a 20-digit cell, too long for the short path whatever the setting, is refused the same way.
    @Test func cellsOfDigitsAloneAreTheirNumberUpToTheSetting() {
        for digits in 1...DigitIdentifier.maximumDigits {
            for length in 1...20 {
                let nines = String(repeating: "9", count: length)
                let padded = String(repeating: "0", count: length - 1) + "7"
                for (text, number) in [(nines, UInt64(nines)), (padded, 7)] {
                    let expected: Normalized<UInt64> =
                        length <= digits
                        ? .value(number ?? 0)
                        : .invalid(reason: "has \(length) digits; a VT tag has at most \(digits)")
                    #expect(parse(text, digits: digits) == expected, "\(text) with \(digits) digits")
                }
            }
        }
    }

    /// Cells the short path must leave to the full reading: blanks around the digits, a prefix, a float tail, a
    /// letter or a sign, and placeholders.
    @Test(arguments: [
        (" 1234 ", Normalized<UInt64>.value(1234)),
        ("VT1234", .value(1234)),
        ("1234.0", .value(1234)),
        ("-", .empty),
        ("", .empty),
        ("12a4", .invalid(reason: "contains the character \"a\"; a VT tag is digits, optionally after VT")),
        ("+1234", .invalid(reason: "contains the character \"+\"; a VT tag is digits, optionally after VT")),
        ("1234\u{0}", .invalid(reason: "contains the control character 0x00; a VT tag is digits, optionally after VT")),
    ])
    func otherCellsAreReadInFull(text: String, expected: Normalized<UInt64>) {
        #expect(parse(text, digits: 6) == expected)
    }
}
