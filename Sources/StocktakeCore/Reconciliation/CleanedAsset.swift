/// One row of `cleaned.csv`: an asset's merged values, its status and the files that mention it.
public struct CleanedAsset: Sendable, Hashable {
    /// The values as kept: packed, their texts ids in `SharedTexts` (a million assets hold no strings of their own).
    var packed: PackedValues
    public var status: AssetStatus
    /// The `sources` cell: display names of the files with rows of this asset, in source order, joined by "; ".
    /// Assets with the same files share one string.
    public var sourceList: String

    /// The asset's merged values, unpacked each time they are read.
    public var values: AssetValues {
        get { packed.values }
        set { packed = PackedValues(newValue) }
    }

    public init(values: AssetValues, status: AssetStatus, sources: [String]) {
        self.init(values: values, status: status, sourceList: sources.joined(separator: "; "))
    }

    public init(values: AssetValues, status: AssetStatus, sourceList: String) {
        self.init(packed: PackedValues(values), status: status, sourceList: sourceList)
    }

    init(packed: PackedValues, status: AssetStatus, sourceList: String) {
        self.packed = packed
        self.status = status
        self.sourceList = sourceList
    }

    /// Display names of the files with rows of this asset, in source order.
    public var sources: [String] {
        sourceList.isEmpty ? [] : sourceList.components(separatedBy: "; ")
    }

    /// Assets are equal when their values are (texts compared as strings), status and sources are.
    public static func == (lhs: CleanedAsset, rhs: CleanedAsset) -> Bool {
        lhs.values == rhs.values && lhs.status == rhs.status && lhs.sourceList == rhs.sourceList
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
        hasher.combine(status)
        hasher.combine(sourceList)
    }
}
