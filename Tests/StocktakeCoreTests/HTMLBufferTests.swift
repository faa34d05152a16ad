import Testing

@testable import StocktakeCore

@Suite("HTMLBuffer: the report's bytes, written in place")
struct HTMLBufferTests {
    static func written(_ write: (inout HTMLBuffer) -> Void) -> String {
        var buffer = HTMLBuffer()
        write(&buffer)
        return buffer.text
    }

    @Test func tenthsRoundHalfAwayFromZeroAndDropTheSignOfZero() {
        let cases: [(Double, String)] = [
            (0, "0.0"), (20, "20.0"), (3.14159, "3.1"), (-0.26, "-0.3"),
            // Halves (as the product by 10 holds them exactly) round away from zero.
            (0.25, "0.3"), (-0.25, "-0.3"), (0.05, "0.1"), (-0.05, "-0.1"), (1.45, "1.5"), (2.35, "2.4"),
            (0.35, "0.4"), (-2.65, "-2.7"),
            // 1.005 × 10 is 10.049999…, below the half.
            (1.005, "1.0"),
            // A negative value that rounds to zero has no sign.
            (-0.04, "0.0"), (-0.0, "0.0"),
            (640, "640.0"), (123_456.78, "123456.8"), (-9_876_543.21, "-9876543.2"),
            (1e15, "1000000000000000.0"),
        ]
        for (value, text) in cases {
            #expect(Self.written { $0.append(tenths: value) } == text, "\(value)")
        }
    }

    @Test func groupedNumbersAreWrittenAsGroupedWritesThem() {
        let cases: [(Int, String)] = [
            (0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (-1024, "-1,024"), (100_000, "100,000"),
            (1_234_567, "1,234,567"), (-999_999, "-999,999"),
            (Int.max, "9,223,372,036,854,775,807"), (Int.min, "-9,223,372,036,854,775,808"),
        ]
        for (number, text) in cases {
            #expect(Self.written { $0.append(grouped: number) } == text)
            #expect(grouped(number) == text)
        }
    }

    @Test func wholeNumbersAreWrittenInDecimal() {
        #expect(Self.written { $0.append(0) } == "0")
        #expect(Self.written { $0.append(-42) } == "-42")
        #expect(Self.written { $0.append(1_000_000) } == "1000000")
        #expect(Self.written { $0.append(Int.min) } == "-9223372036854775808")
        #expect(Self.written { $0.append(UInt64.max) } == "18446744073709551615")
    }

    @Test func countsCarryTheirNounAsCountedWritesThem() {
        for (count, singular, plural) in [
            (0, "error", nil), (1, "error", nil), (2, "error", nil), (1, "more change", nil),
            (1_500, "person", "people"), (1, "person", "people"),
        ] as [(Int, String, String?)] {
            #expect(Self.written { $0.append(counted: count, singular, plural) } == counted(count, singular, plural))
        }
        #expect(Self.written { $0.append(counted: 2_000, "asset") } == "2,000 assets")
    }

    /// The five characters HTML gives meaning to are replaced, every other byte kept; `HTMLReport.escape` is this.
    @Test func escapedTextReplacesTheFiveSpecialCharactersAndKeepsEveryOtherByte() {
        #expect(Self.written { $0.append(escaped: "a<b>c&d\"e'f") } == "a&lt;b&gt;c&amp;d&quot;e&#39;f")
        #expect(Self.written { $0.append(escaped: "&amp;") } == "&amp;amp;")
        #expect(Self.written { $0.append(escaped: "") } == "")
        let others = String(decoding: (UInt8(0)..<128).filter { !Array("<>&\"'".utf8).contains($0) }, as: UTF8.self)
        #expect(Self.written { $0.append(escaped: others + "Café ✓") } == others + "Café ✓")
        #expect(HTMLReport.escape("x'<") == "x&#39;&lt;")
    }

    @Test func piecesFollowEachOther() {
        var first = HTMLBuffer()
        first.append("<p>")
        first.append(escaped: "R&D")
        var second = HTMLBuffer(capacity: 64)
        second.append(grouped: 12_345)
        second.append("</p>")
        first.append(second)
        #expect(first.text == "<p>R&amp;D12,345</p>")
        #expect(first.bytes == Array("<p>R&amp;D12,345</p>".utf8))
        first.removeAll()
        #expect(first.bytes.isEmpty)
        first.append(-7)
        #expect(first.text == "-7")
    }

    /// A copy is a value of its own: writing to it (past its room, within it, or emptying it) leaves the buffer it
    /// was copied from as it was, and the other way round.
    @Test func aCopyIsAValueOfItsOwn() {
        var original = HTMLBuffer(capacity: 64)
        original.append("<p>")
        var copy = original
        copy.append("more")
        #expect(original.text == "<p>")
        #expect(copy.text == "<p>more")
        original.append(String(repeating: "x", count: 200))
        #expect(copy.text == "<p>more")
        #expect(original.count == 203)
        var emptied = copy
        emptied.removeAll()
        emptied.append(7)
        #expect(emptied.text == "7")
        #expect(copy.text == "<p>more")
        // A buffer that grows many times keeps every byte in order.
        var long = HTMLBuffer()
        var expected: [UInt8] = []
        for index in 0..<5_000 {
            long.append(index)
            long.append(" ")
            expected += Array("\(index) ".utf8)
        }
        #expect(long.bytes == expected)
    }
}
