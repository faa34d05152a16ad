/// What a lookup over one or more accounts found.
public struct AssetLookupResult: Sendable, Equatable {
    /// The matching rows, accounts in name order and rows in file order within an account.
    public var matches: [AssetMatch]
    /// The accounts whose tables were read, in name order, for the "No asset matches … in …" answer.
    public var searched: [String]
    /// Why accounts were left out of a search over every account (a broken configuration, an unreadable table);
    /// a search of one named account throws instead.
    public var skipped: [AssetLookupError]

    public init(matches: [AssetMatch] = [], searched: [String] = [], skipped: [AssetLookupError] = []) {
        self.matches = matches
        self.searched = searched
        self.skipped = skipped
    }
}
