/// `discrepancies.xlsx`: the rows of `discrepancies.csv` as an Excel workbook.
///
/// Same columns and order as `DiscrepancyTable`, with the same cell texts (`DiscrepancyTable.row`), except that
/// `first_seen` is a date cell. Identifiers and the finding's id are text cells styled `@`, so leading zeros
/// survive; a value starting with `=` is text and needs no guard character.
public enum DiscrepancyWorkbook {
    /// The sheet's name.
    static let sheet = "discrepancies"

    /// The column of `first_seen`, written as a date.
    static let firstSeenColumn = DiscrepancyTable.columns.firstIndex(of: "first_seen")!

    /// The columns: `DiscrepancyTable.columns`, each with the kind of its cells.
    static let columns: [WorkbookWriter.Column] = DiscrepancyTable.columns.map { name in
        switch name {
        case "vt_tag", "cns_number", "serial_number", "mac_address", "id": WorkbookWriter.Column(name, .identifier)
        case "first_seen": WorkbookWriter.Column(name, .date)
        default: WorkbookWriter.Column(name, .text)
        }
    }

    /// The workbook as a file `PieceWriter` writes.
    static func writer(
        _ reconciliation: Reconciliation, to path: String, synchronizingFolder: Bool = false
    ) -> WorkbookWriter {
        let discrepancies = reconciliation.discrepancies
        let statuses = reconciliation.statuses
        return WorkbookWriter(
            sheet: sheet, columns: columns, rowCount: discrepancies.count,
            to: .file(path: path, synchronizingFolder: synchronizingFolder)
        ) {
            WorkbookWriter.Contents { append(discrepancies[$0], status: statuses[$0], to: &$1) }
        }
    }

    /// The workbook's bytes.
    static func bytes(_ reconciliation: Reconciliation) -> [UInt8] {
        let discrepancies = reconciliation.discrepancies
        let statuses = reconciliation.statuses
        return WorkbookWriter.bytes(sheet: sheet, columns: columns, rowCount: discrepancies.count) {
            append(discrepancies[$0], status: statuses[$0], to: &$1)
        }
    }

    /// Writes the cells of one finding.
    static func append(_ discrepancy: Discrepancy, status: FindingStatus, to cells: inout WorksheetRow) {
        for (index, text) in DiscrepancyTable.row(discrepancy, status: status).enumerated() {
            if index == firstSeenColumn {
                cells.date(status.firstSeen)
            } else {
                cells.text(text)
            }
        }
    }
}
