/// `cleaned.csv`: one row per asset, sorted by VT tag, in the column order of DOMAIN.md.
public enum CleanedTable {
    /// The header of `cleaned.csv`.
    public static let columns: [String] = CanonicalField.allCases.map(\.rawValue) + ["status", "sources"]

    /// The file's bytes.
    public static func csv(_ reconciliation: Reconciliation) -> [UInt8] {
        TableFile.bytes(header: columns, rowCount: reconciliation.assets.count) { row(reconciliation.assets[$0]) }
    }

    /// Writes the file to `path` atomically, a block of rows at a time.
    public static func write(_ reconciliation: Reconciliation, to path: String) throws(StocktakeError) {
        try TableFile.write(
            header: columns, rowCount: reconciliation.assets.count, row: { row(reconciliation.assets[$0]) }, to: path)
    }

    /// The cells of one asset, in column order.
    public static func row(_ asset: CleanedAsset) -> [String] {
        CanonicalField.allCases.map(asset.values.text) + [asset.status.rawValue, asset.sourceList]
    }
}
