import Testing

@testable import StocktakeCore

@Suite struct DecimalDigitsTests {
    /// The digits `DecimalDigits` writes for `value` in `count` places.
    private static func written(_ value: UInt64, count: Int) -> String {
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            DecimalDigits.write(value, count: count, to: buffer.baseAddress!)
            initialized = count
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func countsTheDigitsOfEveryLength() {
        #expect(DecimalDigits.count(0) == 1)
        var power: UInt64 = 1
        for digits in 1...19 {
            // 10^(digits-1) has `digits` digits, and the number before it one fewer.
            #expect(DecimalDigits.count(power) == digits, "\(power)")
            if digits > 1 { #expect(DecimalDigits.count(power - 1) == digits - 1, "\(power - 1)") }
            power *= 10
        }
        #expect(DecimalDigits.count(power) == 20)
        #expect(DecimalDigits.count(UInt64.max) == 20)
    }

    @Test func writesTheDigitsPaddedWithZerosAsDescriptionDoes() {
        var generator = CSVTestRandomGenerator(seed: 20_261_125)
        var values: [UInt64] = [0, 1, 9, 10, 99, 100, 101, 999, 1_000, 65_536, UInt64.max, UInt64.max - 1]
        for _ in 0..<2_000 { values.append(generator.next() >> (generator.next() % 64)) }
        for value in values {
            let text = String(value)
            #expect(Self.written(value, count: DecimalDigits.count(value)) == text)
            for extra in [1, 2, 5] {
                #expect(Self.written(value, count: text.count + extra) == String(repeating: "0", count: extra) + text)
            }
        }
    }
}
