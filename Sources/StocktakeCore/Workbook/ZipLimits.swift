/// How far an entry of a ZIP file may inflate before it is refused as a ZIP bomb.
///
/// A workbook's parts are a few megabytes; a deflated entry that inflates to gigabytes, or far more than deflate
/// reaches on real data, is refused while inflating, before it can take the machine's memory.
public struct ZipLimits: Sendable, Equatable {
    /// The most bytes one entry may inflate to (declared in its header or actually produced).
    public var maximumEntrySize: Int
    /// The most inflated bytes per compressed byte, checked once an entry passes `ratioAppliesAbove` bytes.
    public var maximumRatio: Int
    /// The inflated size below which the ratio is not checked: small entries of repeated text compress very well.
    public var ratioAppliesAbove: Int

    /// Limits with the given values; the defaults are `standard`'s.
    public init(maximumEntrySize: Int = 1 << 30, maximumRatio: Int = 1000, ratioAppliesAbove: Int = 1 << 20) {
        self.maximumEntrySize = maximumEntrySize
        self.maximumRatio = maximumRatio
        self.ratioAppliesAbove = ratioAppliesAbove
    }

    /// 1 GiB per entry, and at most 1,000 inflated bytes per compressed byte once past 1 MiB.
    public static let standard = ZipLimits()

    /// Whether `size` inflated bytes from `compressed` bytes pass the ratio limit.
    func exceedsRatio(size: Int, compressed: Int) -> Bool {
        guard size > ratioAppliesAbove else { return false }
        let (allowed, overflow) = max(compressed, 1).multipliedReportingOverflow(by: maximumRatio)
        return !overflow && size > allowed
    }
}
