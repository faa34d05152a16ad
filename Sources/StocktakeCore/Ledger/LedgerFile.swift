/// `ledger.csv`: an account's findings across nights, one row per finding, written into every run's folder; the
/// ledger of the account is the one in the run `latest` points at, so it changes exactly when `latest` does.
public enum LedgerFile {
    /// The file's columns.
    public static let columns = [
        "id", "code", "key", "first_seen", "last_seen", "state", "resolved_on", "evidence", "acknowledged_evidence",
        "pushed", "vt_tag", "cns_number", "serial_number", "mac_address", "field", "value", "expected", "note",
    ]

    /// The entries of the ledger at `path`; `nil` when there is no file (the first night of an account).
    public static func read(_ path: String) throws(StocktakeError) -> [LedgerEntry]? {
        guard let table = try StateTable.read(path, required: columns) else { return nil }
        var entries: [LedgerEntry] = []
        for row in table.rows {
            func date(_ column: String) throws(StocktakeError) -> InventoryDate? {
                let text = row[column]
                if text.isEmpty { return nil }
                guard let date = InventoryDate.parseISO(text) else {
                    throw broken(path, line: row.line, "its \(column) \"\(text)\" is not a date as YYYY-MM-DD")
                }
                return date
            }
            guard let id = FindingID(row["id"]) else {
                throw broken(path, line: row.line, "\"\(row["id"])\" is not a finding id")
            }
            guard let code = DiscrepancyCode(rawValue: row["code"]) else {
                throw broken(path, line: row.line, "\"\(row["code"])\" is not a discrepancy code")
            }
            guard let state = FindingState(rawValue: row["state"]) else {
                throw broken(path, line: row.line, "\"\(row["state"])\" is not a finding state")
            }
            guard let firstSeen = try date("first_seen"), let lastSeen = try date("last_seen") else {
                throw broken(path, line: row.line, "it has no first_seen or last_seen date")
            }
            entries.append(
                LedgerEntry(
                    id: id, code: code, key: row["key"], firstSeen: firstSeen, lastSeen: lastSeen, state: state,
                    resolvedOn: try date("resolved_on"), evidence: row["evidence"],
                    acknowledgedEvidence: row["acknowledged_evidence"], pushed: row["pushed"] == "yes",
                    vtTag: row["vt_tag"], cnsNumber: row["cns_number"], serialNumber: row["serial_number"],
                    macAddress: row["mac_address"], field: row["field"], value: row["value"],
                    expected: row["expected"], note: row["note"]))
        }
        return entries
    }

    /// The file's bytes.
    public static func bytes(_ entries: [LedgerEntry]) -> [UInt8] {
        StateTable.bytes(
            header: columns,
            rows: entries.map { entry in
                [
                    entry.id.description, entry.code.rawValue, entry.key, entry.firstSeen.description,
                    entry.lastSeen.description, entry.state.rawValue, entry.resolvedOn?.description ?? "",
                    entry.evidence, entry.acknowledgedEvidence, entry.pushed ? "yes" : "", entry.vtTag,
                    entry.cnsNumber, entry.serialNumber, entry.macAddress, entry.field, entry.value, entry.expected,
                    entry.note,
                ]
            })
    }

    private static func broken(_ path: String, line: Int, _ problem: String) -> StocktakeError {
        .badData(
            path: path,
            reason: "line \(line) of the ledger cannot be read: \(problem). Restore the file from the run before, "
                + "or remove it to start the ledger again (every finding is then new).")
    }
}
