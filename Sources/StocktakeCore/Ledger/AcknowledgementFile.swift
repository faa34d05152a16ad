import Foundation

/// `acknowledged.csv`: the findings a clerk has acknowledged, one row each (`stocktake ack` appends them; a clerk
/// may keep the same columns in a sheet of their own).
public enum AcknowledgementFile {
    /// The file's columns; only `id` is required of a sheet kept by hand.
    public static let columns = ["id", "note", "until", "by", "acknowledged_on", "evidence"]

    /// What was read: the acknowledgements by id (a later row for the same id replaces an earlier one), and a
    /// sentence for each row that was left out.
    public struct Contents: Sendable {
        public var acknowledgements: [FindingID: Acknowledgement] = [:]
        public var problems: [String] = []
    }

    /// Reads the acknowledgements at `path` (named `name` in sentences); no file means none.
    public static func read(_ path: String, name: String) throws(StocktakeError) -> Contents {
        var contents = Contents()
        guard let table = try StateTable.read(path, required: ["id"]) else { return contents }
        for row in table.rows {
            let place = "\(name) line \(row.line)"
            guard let id = FindingID(row["id"].trimmingCharacters(in: .whitespaces)) else {
                contents.problems.append(
                    "\(place): \"\(row["id"])\" is not a finding id (ids look like F7K2-Q9MD); the row is ignored.")
                continue
            }
            var until: InventoryDate?
            let untilText = row["until"].trimmingCharacters(in: .whitespaces)
            if !untilText.isEmpty {
                guard let date = InventoryDate.parseISO(untilText) else {
                    contents.problems.append(
                        "\(place): until \"\(untilText)\" is not a date as YYYY-MM-DD; the row is ignored.")
                    continue
                }
                until = date
            }
            let onText = row["acknowledged_on"].trimmingCharacters(in: .whitespaces)
            let acknowledgedOn = InventoryDate.parseISO(onText)
            if !onText.isEmpty && acknowledgedOn == nil {
                contents.problems.append(
                    "\(place): acknowledged_on \"\(onText)\" is not a date as YYYY-MM-DD; the acknowledgement holds "
                        + "without it.")
            }
            contents.acknowledgements[id] = Acknowledgement(
                id: id, note: row["note"], until: until, by: row["by"], acknowledgedOn: acknowledgedOn,
                evidence: row["evidence"].trimmingCharacters(in: .whitespaces))
        }
        return contents
    }

    /// Adds `acknowledgements` to the file at `path` (creating it with its header), replacing rows of the same ids,
    /// and writes it atomically. Columns a clerk added by hand are kept, after stocktake's own.
    public static func add(_ acknowledgements: [Acknowledgement], to path: String) throws(StocktakeError) {
        var kept: [[String]] = []
        var extra: [String] = []
        let replaced = Set(acknowledgements.map(\.id))
        if let table = try StateTable.read(path, required: ["id"]) {
            extra = table.header.filter { !$0.isEmpty && !columns.contains($0.lowercased()) }
            for row in table.rows {
                if let id = FindingID(row["id"].trimmingCharacters(in: .whitespaces)), replaced.contains(id) {
                    continue
                }
                kept.append((columns + extra.map { $0.lowercased() }).map { row[$0] })
            }
        }
        let added = acknowledgements.map { acknowledgement in
            [
                acknowledgement.id.description, acknowledgement.note, acknowledgement.until?.description ?? "",
                acknowledgement.by, acknowledgement.acknowledgedOn?.description ?? "", acknowledgement.evidence,
            ] + extra.map { _ in "" }
        }
        try AtomicFile.write(StateTable.bytes(header: columns + extra, rows: kept + added), to: path)
    }
}
