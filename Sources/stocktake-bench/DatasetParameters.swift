import StocktakeCore
import StocktakeGenerator

/// The parameters one generated account is made from; equal parameters make byte-identical files, so a dataset
/// generated once can be reused.
struct DatasetParameters: Sendable, Hashable {
    var assets: Int
    var seed: UInt64
    var tagDigits: Int
    var cnsDigits: Int
    var asOf: CalendarDay
    /// One set of injected discrepancies per this many assets (`stocktake-bench report` makes it dense).
    var assetsPerInjection = GeneratorOptions.defaultAssetsPerInjection

    /// Whether the injections are as dense as usual (then the folder name and marker do not mention them, and
    /// data kept before the option existed is reused).
    private var usualInjections: Bool { assetsPerInjection == GeneratorOptions.defaultAssetsPerInjection }

    /// The folder name the dataset is kept under in a data folder.
    /// What is generated, for the line that says so: "83,350 assets (seed 7, one set of injected discrepancies
    /// per 25 assets)".
    var summary: String {
        "\(grouped(assets)) assets (seed \(seed)"
            + (usualInjections ? ")" : ", one set of injected discrepancies per \(assetsPerInjection) assets)")
    }

    var folderName: String {
        "assets-\(assets)-seed-\(seed)-tags-\(tagDigits)-cns-\(cnsDigits)-as-of-\(asOf.iso)"
            + (usualInjections ? "" : "-every-\(assetsPerInjection)")
    }

    /// The marker file's text, written last when the dataset is complete: the parameters as JSON.
    var marker: String {
        """
        {"assets": \(assets), "seed": \(seed), "tagDigits": \(tagDigits), "cnsDigits": \(cnsDigits), \
        "asOf": "\(asOf.iso)"\(usualInjections ? "" : ", \"assetsPerInjection\": \(assetsPerInjection)")}

        """
    }

    /// The generator's options for these parameters.
    var generatorOptions: GeneratorOptions {
        var options = GeneratorOptions(assets: assets, seed: seed)
        options.tagDigits = tagDigits
        options.cnsDigits = cnsDigits
        options.asOf = asOf
        options.assetsPerInjection = assetsPerInjection
        return options
    }
}
