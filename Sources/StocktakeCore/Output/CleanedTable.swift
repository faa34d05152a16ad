/// `cleaned.csv`: one row per asset, sorted by VT tag, in the column order of DOMAIN.md.
public enum CleanedTable {
    /// The header of `cleaned.csv`.
    public static let columns: [String] = CanonicalField.allCases.map(\.rawValue) + ["status", "sources"]

    /// The file's bytes.
    public static func csv(_ reconciliation: Reconciliation) -> [UInt8] {
        var writer = CSVWriter(header: columns)
        for asset in reconciliation.assets {
            writer.append(
                CanonicalField.allCases.map(asset.values.text) + [
                    asset.status.rawValue, asset.sources.joined(separator: "; "),
                ])
        }
        return writer.bytes
    }
}
