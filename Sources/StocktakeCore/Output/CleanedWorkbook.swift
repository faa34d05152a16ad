/// `cleaned.xlsx`: the rows of `cleaned.csv` as an Excel workbook, for the clerk who opens them in Excel.
///
/// Same columns and order as `CleanedTable`. Identifiers are text cells (styled `@`), so a tag keeps its leading
/// zeros; coordinates are numbers; `last_seen` is a date cell; free text is text, so a cell starting with `=` needs
/// no guard character. Values are read from the packed values, as `cleaned.csv` reads them. The texts that repeat
/// from asset to asset are shared strings (see `CleanedSharedStrings`).
public enum CleanedWorkbook {
    /// The sheet's name.
    static let sheet = "cleaned"

    /// The columns: `CleanedTable.columns`, each with the kind of its cells.
    static let columns: [WorkbookWriter.Column] =
        CanonicalField.allCases.map { WorkbookWriter.Column($0.rawValue, kind(of: $0)) }
        + CleanedTable.annotationColumns.map { WorkbookWriter.Column($0, .text) }

    /// The workbook of the reconciliation of `texts` as a file `PieceWriter` writes; its shared strings are gathered
    /// (by `texts`, once for it and `cleaned.csv`) when it is prepared.
    static func writer(_ texts: CleanedTexts, to path: String, synchronizingFolder: Bool = false) -> WorkbookWriter {
        let assets = texts.reconciliation.assets
        return WorkbookWriter(
            sheet: sheet, columns: columns, rowCount: assets.count,
            to: .file(path: path, synchronizingFolder: synchronizingFolder)
        ) {
            let shared = texts.sharedStrings
            return WorkbookWriter.Contents(sharedStrings: shared.table) {
                append($0, of: assets, texts.annotations, shared, to: &$1)
            }
        }
    }

    /// The workbook's bytes.
    static func bytes(_ reconciliation: Reconciliation, rowsPerSheet: Int = WorkbookWriter.rowsPerSheet) -> [UInt8] {
        let assets = reconciliation.assets
        let annotations = CleanedAnnotations(reconciliation)
        let shared = CleanedSharedStrings(reconciliation, annotations: annotations)
        return WorkbookWriter.bytes(
            sheet: sheet, columns: columns, rowCount: assets.count, rowsPerSheet: rowsPerSheet,
            sharedStrings: shared.table
        ) { append($0, of: assets, annotations, shared, to: &$1) }
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

    /// Writes the cells of the asset at `index`.
    static func append(
        _ index: Int, of assets: [CleanedAsset], _ annotations: CleanedAnnotations, _ shared: CleanedSharedStrings,
        to cells: inout WorksheetRow
    ) {
        // The asset's values alone are read: copying the whole asset out of the array retained its `sources` text.
        let values = assets[index].packed
        if index + Prefetch.rowsAhead < assets.count,
            let id = assets[index + Prefetch.rowsAhead].packed.serialCode.pooledID
        {
            SharedTexts.shared.prefetch(id)
        }
        cells.plainText { if let tag = values.vtTag { CanonicalText.append(tag, to: &$0) } }
        cells.plainText { if let number = values.cnsNumber { CanonicalText.append(number, to: &$0) } }
        values.serialCode.withBytes { cells.text($0) }
        cells.plainText { if let address = values.macAddress { CanonicalText.append(address, to: &$0) } }
        cells.shared(shared.index(.model, ofAsset: index))
        cells.shared(shared.index(.description, ofAsset: index))
        cells.shared(shared.index(.building, ofAsset: index))
        cells.shared(shared.index(.room, ofAsset: index))
        cells.shared(shared.index(.mount, ofAsset: index))
        cells.shared(shared.index(.custodian, ofAsset: index))
        cells.number(values.latitude)
        cells.number(values.longitude)
        cells.date(values.lastSeen)
        cells.shared(shared.index(.stockNumber, ofAsset: index))
        cells.money(values.cost)
        cells.shared(shared.index(.status, ofAsset: index))
        cells.shared(shared.index(.sources, ofAsset: index))
        cells.shared(shared.index(.buildingName, ofAsset: index))
        if annotations.withFindings(ofAsset: index, { cells.text($0) }) == nil { cells.skip() }
    }
}
