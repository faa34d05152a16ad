/// One row of `cleaned.csv`: an asset's merged values, its status and the files that mention it.
public struct CleanedAsset: Sendable, Hashable {
    public var values: AssetValues
    public var status: AssetStatus
    /// The `sources` cell: display names of the files with rows of this asset, in source order, joined by "; ".
    /// Assets with the same files share one string.
    public var sourceList: String

    public init(values: AssetValues, status: AssetStatus, sources: [String]) {
        self.values = values
        self.status = status
        self.sourceList = sources.joined(separator: "; ")
    }

    public init(values: AssetValues, status: AssetStatus, sourceList: String) {
        self.values = values
        self.status = status
        self.sourceList = sourceList
    }

    /// Display names of the files with rows of this asset, in source order.
    public var sources: [String] {
        sourceList.isEmpty ? [] : sourceList.components(separatedBy: "; ")
    }
}
