/// `discrepancies.csv`: one row per finding, most severe first.
public enum DiscrepancyTable {
    /// The header of `discrepancies.csv`.
    public static let columns = [
        "code", "severity", "vt_tag", "cns_number", "serial_number", "mac_address", "field", "value", "expected",
        "sources", "message",
    ]

    /// The file's bytes.
    public static func csv(_ reconciliation: Reconciliation) -> [UInt8] {
        TableFile.bytes(header: columns, rowCount: reconciliation.discrepancies.count) {
            row(reconciliation.discrepancies[$0])
        }
    }

    /// Writes the file to `path` atomically, a block of rows at a time; with `synchronizingFolder` false its folder
    /// is left for the caller to flush.
    public static func write(
        _ reconciliation: Reconciliation, to path: String, synchronizingFolder: Bool = true
    ) throws(StocktakeError) {
        try TableFile.write(
            header: columns, rowCount: reconciliation.discrepancies.count,
            row: { row(reconciliation.discrepancies[$0]) }, to: path, synchronizingFolder: synchronizingFolder)
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
