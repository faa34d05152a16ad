import Testing

@testable import StocktakeGenerator

@Suite struct GeneratorOptionsTests {
    @Test func defaults() {
        let options = GeneratorOptions(assets: 3_000, seed: 2_014)
        #expect(options.asOf == CalendarDay(year: 2026, month: 11, day: 20))
        #expect(options.tagDigits == 6)
        #expect(options.cnsDigits == 6)
        #expect(GeneratorOptions.staleAfterDays == 365)
    }

    @Test func maximumAssetsIsATenthOfTheIdentifierSpace() {
        #expect(GeneratorOptions.maximumAssets(digits: 6) == 100_000)
        #expect(GeneratorOptions.maximumAssets(digits: 4) == 1_000)
    }

    @Test func rejectsUnsupportedDigitCounts() {
        var options = GeneratorOptions(assets: 3_000, seed: 1)
        options.cnsDigits = 13
        #expect(throws: GeneratorError.digitsOutOfRange(option: "CNS digits", value: 13, supported: 4...12)) {
            try options.validate()
        }
        #expect(
            GeneratorError.digitsOutOfRange(option: "CNS digits", value: 13, supported: 4...12).description
                == "13 CNS digits are not supported; use 4 to 12.")
    }

    @Test func rejectsInjectionsDenserThanOnePerTwentyFiveAssets() throws {
        var options = GeneratorOptions(assets: 3_000, seed: 1)
        #expect(options.assetsPerInjection == 500)
        options.assetsPerInjection = 24
        #expect(throws: GeneratorError.injectionsTooDense(requested: 24, minimum: 25)) { try options.validate() }
        #expect(
            GeneratorError.injectionsTooDense(requested: 24, minimum: 25).description
                == "one set of injected discrepancies per 24 assets leaves no room for them; "
                + "ask for one per 25 assets or more.")
        options.assetsPerInjection = 25
        try options.validate()
    }

    @Test func rejectsMoreAssetsThanCNSNumbersFit() {
        var options = GeneratorOptions(assets: 5_000, seed: 1)
        options.cnsDigits = 4
        #expect(
            throws: GeneratorError.tooManyAssets(requested: 5_000, identifier: "CNS numbers", digits: 4, maximum: 1_000)
        ) {
            try options.validate()
        }
    }

    @Test func cannotWriteEndsWithOneFullStop() {
        #expect(
            GeneratorError.cannotWrite(path: "/x/central.csv", reason: "Permission denied.").description
                == "Cannot write /x/central.csv: Permission denied. Check that the folder exists and is writable.")
    }
}
