import Testing

@testable import StocktakeCore

@Suite("ZipLimits")
struct ZipLimitsTests {
    @Test("standard: 1 GiB per entry, 1,000:1 once past 1 MiB")
    func standard() {
        #expect(
            ZipLimits.standard == ZipLimits(maximumEntrySize: 1 << 30, maximumRatio: 1000, ratioAppliesAbove: 1 << 20))
    }

    @Test("the ratio applies only past its threshold, and only beyond the maximum ratio")
    func ratio() {
        let limits = ZipLimits.standard
        #expect(!limits.exceedsRatio(size: 1 << 20, compressed: 1))  // Not past 1 MiB.
        #expect(limits.exceedsRatio(size: (1 << 20) + 1, compressed: 1))
        #expect(limits.exceedsRatio(size: (1 << 20) + 1, compressed: 0))
        #expect(!limits.exceedsRatio(size: 2_000_000, compressed: 2000))  // Exactly 1,000:1.
        #expect(limits.exceedsRatio(size: 2_000_001, compressed: 2000))
        #expect(!limits.exceedsRatio(size: Int.max, compressed: Int.max / 2))  // No overflow.
        #expect(!ZipLimits(maximumRatio: Int.max).exceedsRatio(size: Int.max, compressed: 2))
    }
}
