/// `cleaned.csv`: one row per asset, sorted by VT tag, in the column order of DOMAIN.md.
public enum CleanedTable {
    /// The header of `cleaned.csv`.
    public static let columns: [String] = CanonicalField.allCases.map(\.rawValue) + ["status", "sources"]

    /// The file's bytes.
    public static func csv(_ reconciliation: Reconciliation) -> [UInt8] {
        var bytes: [UInt8] = []
        write(reconciliation) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Writes the file to `path` atomically, a block of rows at a time.
    public static func write(_ reconciliation: Reconciliation, to path: String) throws(StocktakeError) {
        let file = try AtomicFileWriter(path: path)
        var failure: StocktakeError?
        write(reconciliation) { block in
            guard failure == nil else { return }
            do throws(StocktakeError) { try file.write(block) } catch { failure = error }
        }
        if let failure { throw failure }
        try file.commit()
    }

    private static func write(_ reconciliation: Reconciliation, into output: ([UInt8]) -> Void) {
        var writer = CSVWriter(header: columns)
        for index in reconciliation.assets.indices {
            let asset = reconciliation.assets[index]
            writer.append(CanonicalField.allCases.map(asset.values.text) + [asset.status.rawValue, asset.sourceList])
            if writer.bytes.count >= 1 << 20 { output(writer.drain()) }
        }
        output(writer.drain())
    }
}
