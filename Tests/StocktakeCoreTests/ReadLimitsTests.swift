import Testing

@testable import StocktakeCore

struct ReadLimitsTests {
    @Test func theDefaultsAreOneMebibyteExcelsColumnsAndTenMillionRows() {
        let limits = ReadLimits()
        #expect(limits.maxFieldBytes == 1_048_576)
        #expect(limits.maxColumns == 16_384)
        #expect(limits.maxRows == 10_000_000)
        #expect(limits.maxRowBytes == 16 * 1_048_576)
    }

    @Test func aRowMayHoldSixteenFieldsOfTheLimitWithoutOverflowing() {
        #expect(ReadLimits(maxFieldBytes: 4).maxRowBytes == 64)
        #expect(ReadLimits(maxFieldBytes: Int.max / 8).maxRowBytes == Int.max)
    }
}
