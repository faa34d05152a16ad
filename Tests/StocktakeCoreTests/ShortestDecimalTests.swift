import Testing

@testable import StocktakeCore

@Suite("ShortestDecimal: a Double's shortest text, straight into bytes")
struct ShortestDecimalTests {
    /// The text `ShortestDecimal` appends for `value`, `nil` when it leaves the value to `description`.
    private func text(_ value: Double) -> String? {
        var output: [UInt8] = [UInt8(ascii: ">")]
        guard ShortestDecimal.append(value, to: &output) else {
            #expect(output == [UInt8(ascii: ">")], "nothing is appended for \(value)")
            return nil
        }
        #expect(output.first == UInt8(ascii: ">"), "appended after what was there")
        return String(decoding: output.dropFirst(), as: UTF8.self)
    }

    @Test func writesPlainDecimalsWithoutATrailingPointZero() {
        #expect(text(37.232022) == "37.232022")
        #expect(text(-80.428321) == "-80.428321")
        #expect(text(37) == "37")
        #expect(text(-180) == "-180")
        #expect(text(0.5) == "0.5")
        #expect(text(-0.000123) == "-0.000123")
        #expect(text(0.00001) == "0.00001")
        #expect(text(1e-7) == "0.0000001")
        #expect(text(1e-22) == "0.0000000000000000000001")
        #expect(text(0.3) == "0.3")
        #expect(text(123_456_789_012_345) == "123456789012345")
        #expect(text(999_999_999_999_999) == "999999999999999")
        #expect(text(12_345.678_901_234_5) == "12345.6789012345")
        // Six decimals would pass 15 digits, one does not; seven are needed; every one of six reads back.
        #expect(text(123_456_789_012.5) == "123456789012.5")
        #expect(text(1.234_567_8) == "1.2345678")
        #expect(text(-80.4) == "-80.4")
    }

    @Test func leavesLongZeroAndNonFiniteNumbersToDescription() {
        // 17 significant digits, 16, a 16-digit integer, more than 22 decimals, zero, infinities and NaN.
        #expect(text(0.1 + 0.2) == nil)
        #expect(text(1.0 / 3.0) == nil)
        #expect(text(1_000_000_000_000_000) == nil)
        #expect(text(1e-23) == nil)
        #expect(text(0) == nil)
        #expect(text(-0.0) == nil)
        #expect(text(.infinity) == nil)
        #expect(text(-.infinity) == nil)
        #expect(text(.nan) == nil)
    }

    @Test func givesTheTextGeoPositionGivesForEveryNumberItWrites() {
        var generator = CSVTestRandomGenerator(seed: 20_261_125)
        var written = 0
        for _ in 0..<100_000 {
            // Coordinates with 0 to 12 decimals, as surveys and registers write them, and numbers of any bits.
            let decimals = Int.random(in: 0...12, using: &generator)
            let scale = (0..<decimals).reduce(1.0) { product, _ in product * 10 }
            let coordinate = (Double.random(in: -180...180, using: &generator) * scale).rounded() / scale
            let bits = Double(bitPattern: generator.next())
            for value in [coordinate, bits, coordinate.nextUp, Double(Float(coordinate))] {
                if let text = text(value) {
                    written += 1
                    #expect(text == GeoPosition.text(value), "\(value)")
                }
            }
        }
        // Nearly every coordinate has a short text.
        #expect(written > 100_000)
    }
}
