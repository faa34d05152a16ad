/// One row of `cleaned.csv`: an asset's merged values, its status and the files that mention it.
public struct CleanedAsset: Sendable, Hashable {
    public var values: AssetValues
    public var status: AssetStatus
    /// Display names of the files with rows of this asset, in source order.
    public var sources: [String]
}
