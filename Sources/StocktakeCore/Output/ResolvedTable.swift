/// `resolved.csv`: the findings of the last run that are gone tonight, written on every run (only its header when
/// none are gone). `state` is `resolved`, or `fixed_by_push` when stocktake's own push changed the asset's row.
public enum ResolvedTable {
    /// The header of `resolved.csv`: the columns of `discrepancies.csv` a finding keeps in the ledger, then its dates
    /// and state.
    public static let columns = [
        "id", "code", "severity", "vt_tag", "cns_number", "serial_number", "mac_address", "field", "value",
        "expected", "first_seen", "last_seen", "state",
    ]

    /// The file's bytes.
    public static func csv(_ reconciliation: Reconciliation) -> [UInt8] {
        TableFile.bytes(header: columns, rowCount: reconciliation.ledger.resolved.count) {
            row(reconciliation.ledger.resolved[$0])
        }
    }

    /// The file as `PieceWriter` writes it.
    static func writer(_ reconciliation: Reconciliation, to path: String, synchronizingFolder: Bool = false)
        -> TableFile
    {
        let resolved = reconciliation.ledger.resolved
        return TableFile(
            header: columns, rowCount: resolved.count, row: { CSVWriter.appendRow(row(resolved[$0]), to: &$1) },
            to: path, synchronizingFolder: synchronizingFolder)
    }

    /// The cells of one resolved finding, in column order.
    public static func row(_ entry: LedgerEntry) -> [String] {
        [
            entry.id.description, entry.code.rawValue, entry.code.severity.rawValue, entry.vtTag, entry.cnsNumber,
            entry.serialNumber, entry.macAddress, entry.field, entry.value, entry.expected,
            entry.firstSeen.description, entry.lastSeen.description, entry.state.rawValue,
        ]
    }
}
