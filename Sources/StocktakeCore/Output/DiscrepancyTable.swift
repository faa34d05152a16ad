/// `discrepancies.csv`: one row per finding, most severe first.
public enum DiscrepancyTable {
    /// The header of `discrepancies.csv`.
    public static let columns = [
        "code", "severity", "vt_tag", "cns_number", "serial_number", "mac_address", "field", "value", "expected",
        "sources", "message",
    ]

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
        for index in reconciliation.discrepancies.indices {
            writer.append(row(reconciliation.discrepancies[index]))
            if writer.bytes.count >= 1 << 20 { output(writer.drain()) }
        }
        output(writer.drain())
    }

    /// The cells of one discrepancy, in column order.
    public static func row(_ discrepancy: Discrepancy) -> [String] {
        [
            discrepancy.code.rawValue, discrepancy.severity.rawValue, discrepancy.vtTag?.description ?? "",
            discrepancy.cnsNumber?.description ?? "", discrepancy.serialNumber?.description ?? "",
            discrepancy.macAddress?.description ?? "", discrepancy.field?.rawValue ?? "", discrepancy.value,
            discrepancy.expected, discrepancy.sources.map(\.description).joined(separator: "; "), discrepancy.message,
        ]
    }
}
