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

    /// The workbook as a file `PieceWriter` writes; `messages` are the findings' sentences, made once for this file
    /// and `discrepancies.csv` (`DiscrepancyTable.messages(of:)`).
    static func writer(
        _ reconciliation: Reconciliation, messages: [String], to path: String, synchronizingFolder: Bool = false
    ) -> WorkbookWriter {
        let discrepancies = reconciliation.discrepancies
        let statuses = reconciliation.statuses
        return WorkbookWriter(
            sheet: sheet, columns: columns, rowCount: discrepancies.count,
            to: .file(path: path, synchronizingFolder: synchronizingFolder)
        ) {
            WorkbookWriter.Contents {
                let status = statuses[$0]
                let row = DiscrepancyTable.row(discrepancies[$0], status: status, message: messages[$0])
                append(row, firstSeen: status.firstSeen, to: &$1)
            }
        }
    }

    /// The workbook's bytes.
    static func bytes(_ reconciliation: Reconciliation) -> [UInt8] {
        let discrepancies = reconciliation.discrepancies
        let statuses = reconciliation.statuses
        return WorkbookWriter.bytes(sheet: sheet, columns: columns, rowCount: discrepancies.count) {
            append(
                DiscrepancyTable.row(discrepancies[$0], status: statuses[$0]), firstSeen: statuses[$0].firstSeen,
                to: &$1)
        }
    }

    /// Writes the cells of one finding, `DiscrepancyTable.row`'s texts, with `first_seen` as a date.
    static func append(_ row: [String], firstSeen: InventoryDate, to cells: inout WorksheetRow) {
        for (index, text) in row.enumerated() {
            if index == firstSeenColumn {
                cells.date(firstSeen)
            } else {
                cells.text(text)
            }
        }
    }
}
