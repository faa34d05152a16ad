/// The findings of a chunk of assets, and the assets they put in dispute.
struct AssetFindings {
    var found: [Discrepancy] = []
    var disputed: [Int] = []
}
