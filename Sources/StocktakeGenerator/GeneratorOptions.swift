/// What account to generate: how many central assets, from which seed, for which run date and identifier widths.
///
/// The same options always produce byte-identical files.
public struct GeneratorOptions: Sendable, Hashable {
    /// The number of assets in the central sheet.
    public var assets: Int
    /// The seed of the pseudo-random generator; every choice in the account derives from it.
    public var seed: UInt64
    /// The run date the account is built for; sighting dates and `STALE` injections are relative to it.
    public var asOf = CalendarDay(year: 2026, month: 11, day: 20)!
    /// The number of digits of a canonical VT tag.
    public var tagDigits = 6
    /// The number of digits after the `C` of a canonical CNS number.
    public var cnsDigits = 6
    /// One asset of every this many gets each kind of injected discrepancy (about 16 findings per such set): the
    /// default makes about 3 findings per 100 assets; a benchmark of the report lowers it to get many findings
    /// from a small account.
    public var assetsPerInjection = defaultAssetsPerInjection

    /// A sighting older than this many days before the run date makes its asset `STALE`.
    public static let staleAfterDays = 365
    /// The fewest assets that leave room for every injected discrepancy and plenty of clean assets.
    public static let minimumAssets = 100
    /// The usual density of injected discrepancies: one set per 500 assets.
    public static let defaultAssetsPerInjection = 500
    /// The densest injections that leave room for each kind and for clean assets: one set per 25 assets (a set
    /// takes about 18 assets).
    public static let densestAssetsPerInjection = 25
    /// Identifier widths the generator supports.
    public static let supportedDigits = 4...12

    /// Options with the default run date (2026-11-20) and six-digit tags and CNS numbers.
    public init(assets: Int, seed: UInt64) {
        self.assets = assets
        self.seed = seed
    }

    /// The most assets that fit `digits`-digit identifiers while leaving room for unrelated new tags and typos
    /// that are not one edit away from a central tag: a tenth of the identifier space.
    public static func maximumAssets(digits: Int) -> Int {
        var space = 1
        for _ in 0..<digits {
            space *= 10
        }
        return space / 10
    }

    /// Checks that the options describe an account the generator can build.
    public func validate() throws(GeneratorError) {
        guard Self.supportedDigits.contains(tagDigits) else {
            throw .digitsOutOfRange(option: "tag digits", value: tagDigits, supported: Self.supportedDigits)
        }
        guard Self.supportedDigits.contains(cnsDigits) else {
            throw .digitsOutOfRange(option: "CNS digits", value: cnsDigits, supported: Self.supportedDigits)
        }
        guard assetsPerInjection >= Self.densestAssetsPerInjection else {
            throw .injectionsTooDense(requested: assetsPerInjection, minimum: Self.densestAssetsPerInjection)
        }
        guard assets >= Self.minimumAssets else {
            throw .tooFewAssets(requested: assets, minimum: Self.minimumAssets)
        }
        let tagLimit = Self.maximumAssets(digits: tagDigits)
        guard assets <= tagLimit else {
            throw .tooManyAssets(requested: assets, identifier: "VT tags", digits: tagDigits, maximum: tagLimit)
        }
        let cnsLimit = Self.maximumAssets(digits: cnsDigits)
        guard assets <= cnsLimit else {
            throw .tooManyAssets(requested: assets, identifier: "CNS numbers", digits: cnsDigits, maximum: cnsLimit)
        }
    }
}
