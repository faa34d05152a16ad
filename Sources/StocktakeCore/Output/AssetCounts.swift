/// How many cleaned assets have each status, counted in one pass: the report's header and `summary.txt` show all
/// five, and a million assets are better scanned once than five times.
struct AssetCounts: Sendable, Hashable {
    private var counts = [0, 0, 0, 0, 0]

    /// The counts of `assets`.
    init(_ assets: [CleanedAsset]) {
        for index in assets.indices { counts[Self.position(of: assets[index].status)] += 1 }
    }

    /// How many assets have `status`.
    subscript(status: AssetStatus) -> Int {
        counts[Self.position(of: status)]
    }

    private static func position(of status: AssetStatus) -> Int {
        switch status {
        case .ok: 0
        case .missing: 1
        case .unrecorded: 2
        case .conflict: 3
        case .typo: 4
        }
    }
}
