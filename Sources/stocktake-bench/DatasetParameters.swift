import StocktakeGenerator

/// The parameters one generated account is made from; equal parameters make byte-identical files, so a dataset
/// generated once can be reused.
struct DatasetParameters: Sendable, Hashable {
    var assets: Int
    var seed: UInt64
    var tagDigits: Int
    var cnsDigits: Int
    var asOf: CalendarDay

    /// The folder name the dataset is kept under in a data folder.
    var folderName: String {
        "assets-\(assets)-seed-\(seed)-tags-\(tagDigits)-cns-\(cnsDigits)-as-of-\(asOf.iso)"
    }

    /// The marker file's text, written last when the dataset is complete: the parameters as JSON.
    var marker: String {
        """
        {"assets": \(assets), "seed": \(seed), "tagDigits": \(tagDigits), "cnsDigits": \(cnsDigits), \
        "asOf": "\(asOf.iso)"}

        """
    }

    /// The generator's options for these parameters.
    var generatorOptions: GeneratorOptions {
        var options = GeneratorOptions(assets: assets, seed: seed)
        options.tagDigits = tagDigits
        options.cnsDigits = cnsDigits
        options.asOf = asOf
        return options
    }
}
