/// `cleaned.xlsx`: the rows of `cleaned.csv` as an Excel workbook, for the clerk who opens them in Excel.
///
/// Same columns and order as `CleanedTable`. Identifiers are text cells (styled `@`), so a tag keeps its leading
/// zeros; coordinates are numbers; `last_seen` is a date cell; free text is text, so a cell starting with `=` needs
/// no guard character. Values are read from the packed values, as `cleaned.csv` reads them.
public enum CleanedWorkbook {
    /// The sheet's name.
    static let sheet = "cleaned"

    /// The columns: `CleanedTable.columns`, each with the kind of its cells.
    static let columns: [WorkbookWriter.Column] =
        CanonicalField.allCases.map { WorkbookWriter.Column($0.rawValue, kind(of: $0)) }
        + CleanedTable.annotationColumns.map { WorkbookWriter.Column($0, .text) }

    /// Writes the workbook to `path` atomically, streamed; with `synchronizingFolder` false its folder is left for
    /// the caller to flush. `annotations` are the reconciliation's, when the caller has them already.
    static func write(
        _ reconciliation: Reconciliation, to path: String, synchronizingFolder: Bool = true,
        annotations: CleanedAnnotations? = nil
    ) throws(StocktakeError) {
        let assets = reconciliation.assets
        let annotations = annotations ?? CleanedAnnotations(reconciliation)
        try WorkbookWriter.write(
            sheet: sheet, columns: columns, rowCount: assets.count, row: { append(assets[$0], annotations, to: &$1) },
            to: path, synchronizingFolder: synchronizingFolder)
    }

    /// The workbook's bytes.
    static func bytes(_ reconciliation: Reconciliation, rowsPerSheet: Int = WorkbookWriter.rowsPerSheet) -> [UInt8] {
        let assets = reconciliation.assets
        let annotations = CleanedAnnotations(reconciliation)
        return WorkbookWriter.bytes(
            sheet: sheet, columns: columns, rowCount: assets.count, rowsPerSheet: rowsPerSheet
        ) { append(assets[$0], annotations, to: &$1) }
    }

    /// The kind of cells a field's column holds.
    static func kind(of field: CanonicalField) -> WorkbookWriter.ColumnKind {
        switch field {
        case .vtTag, .cnsNumber, .serialNumber, .macAddress, .stockNumber: .identifier
        case .model, .description, .building, .room, .mount, .custodian: .text
        case .latitude, .longitude: .number
        case .lastSeen: .date
        case .cost: .money
        }
    }

    /// Writes the cells of one asset.
    static func append(_ asset: CleanedAsset, _ annotations: CleanedAnnotations, to cells: inout WorksheetRow) {
        let values = asset.packed
        let texts = SharedTexts.shared
        func text(_ id: Int32) -> String? { id >= 0 ? texts.string(id) : nil }
        cells.plainText { if let tag = values.vtTag { CanonicalText.append(tag, to: &$0) } }
        cells.plainText { if let number = values.cnsNumber { CanonicalText.append(number, to: &$0) } }
        cells.text(text(values.serialNumberText))
        cells.plainText { if let address = values.macAddress { CanonicalText.append(address, to: &$0) } }
        cells.text(text(values.model))
        cells.text(text(values.description))
        cells.text(text(values.building))
        cells.text(text(values.room))
        cells.text(text(values.mount))
        cells.text(text(values.custodian))
        cells.number(values.latitude)
        cells.number(values.longitude)
        cells.date(values.lastSeen)
        cells.text(text(values.stockNumber))
        cells.money(values.cost)
        cells.text(asset.status.rawValue)
        cells.text(asset.sourceList)
        cells.text(annotations.buildingName(of: asset))
        cells.text(annotations.findings(of: asset))
    }
}
