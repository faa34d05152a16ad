/// `discrepancies.csv`: one row per finding, most severe first.
public enum DiscrepancyTable {
    /// The header of `discrepancies.csv`.
    public static let columns = [
        "code", "severity", "vt_tag", "cns_number", "serial_number", "mac_address", "field", "value", "expected",
        "sources", "message", "id", "first_seen", "state",
    ]

    /// The file's bytes.
    public static func csv(_ reconciliation: Reconciliation) -> [UInt8] {
        let statuses = reconciliation.statuses
        return TableFile.bytes(header: columns, rowCount: reconciliation.discrepancies.count) {
            row(reconciliation.discrepancies[$0], status: statuses[$0])
        }
    }

    /// The file as `PieceWriter` writes it; `messages` are the findings' sentences (`Discrepancy.message`), made
    /// once for this file and `discrepancies.xlsx` (`messages(of:)`).
    static func writer(
        _ reconciliation: Reconciliation, messages: [String], to path: String, synchronizingFolder: Bool = false
    ) -> TableFile {
        let discrepancies = reconciliation.discrepancies
        let statuses = reconciliation.statuses
        return TableFile(
            header: columns, rowCount: discrepancies.count,
            row: {
                CSVWriter.appendRow(row(discrepancies[$0], status: statuses[$0], message: messages[$0]), to: &$1)
            }, to: path, synchronizingFolder: synchronizingFolder)
    }

    /// The sentence of each finding of `reconciliation`, in order, made on all cores.
    ///
    /// A sentence costs thousands of instructions to write (its sources spoken, its values listed), and both
    /// `discrepancies.csv` and `discrepancies.xlsx` show it: a run makes each once and gives them to both.
    static func messages(of reconciliation: Reconciliation) -> [String] {
        let discrepancies = reconciliation.discrepancies
        return Parallel.map(discrepancies.count) { discrepancies[$0].message }
    }

    /// The cells of one discrepancy, in column order; the status's note, when it has one, follows the message.
    public static func row(_ discrepancy: Discrepancy, status: FindingStatus) -> [String] {
        row(discrepancy, status: status, message: discrepancy.message)
    }

    /// The cells of one discrepancy whose sentence (`Discrepancy.message`) is `message`, made already.
    static func row(_ discrepancy: Discrepancy, status: FindingStatus, message: String) -> [String] {
        let message = status.note.isEmpty ? message : message + " " + status.note
        return [
            discrepancy.code.rawValue, discrepancy.severity.rawValue, discrepancy.vtTag?.description ?? "",
            discrepancy.cnsNumber?.description ?? "", discrepancy.serialNumber?.description ?? "",
            discrepancy.macAddress?.description ?? "", discrepancy.field?.rawValue ?? "", discrepancy.value,
            discrepancy.expected, discrepancy.sources.map(\.description).joined(separator: "; "), message,
            status.id.description, status.firstSeen.description, status.state.rawValue,
        ]
    }
}
