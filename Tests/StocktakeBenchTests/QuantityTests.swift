import Testing

@testable import stocktake_bench

/// How the report writes numbers.
struct QuantityTests {
    @Test func seconds() {
        #expect(Quantity.seconds(53.921) == "53.92 s")
        #expect(Quantity.seconds(0.1) == "0.10 s")
        #expect(Quantity.seconds(0.0523) == "0.052 s")
        #expect(Quantity.seconds(0.00041) == "0.0004 s")
    }

    @Test func megabytesAndRates() {
        #expect(Quantity.megabytes(5_012_345_678) == "5,012 MB")
        #expect(Quantity.megabytes(418_300_000) == "418 MB")
        #expect(Quantity.megabytes(42_800_000) == "42.8 MB")
        #expect(Quantity.rate(6_572_690, per: 53.92) == "121,897")
        #expect(Quantity.rate(7.75, per: 1) == "7.8")
        #expect(Quantity.rate(5, per: 0) == "0")
    }

    @Test func ratios() {
        #expect(Quantity.ratio(53.92, 0.05) == "1,078×")
        #expect(Quantity.ratio(53.92, 16) == "3.37×")
        #expect(Quantity.ratio(1, 0) == "–")
    }
}
