import Dispatch

/// Writes a table as an Excel workbook (.xlsx): a header row, frozen and filtered, over typed cells.
///
/// The sheet's XML is made a block of rows at a time, each block deflated on its own (two at once on two cores)
/// and streamed into the ZIP file, so a million-row table never sits whole in memory. Blocks hold a fixed number
/// of rows, so the same table makes the same bytes whatever the number of cores. A table longer than a sheet's
/// 1,048,576 rows continues on further sheets (`cleaned`, `cleaned (2)`, …), each with the header.
enum WorkbookWriter {
    /// What a column holds, which decides its cells' type and style.
    enum ColumnKind: Sendable {
        /// Text that must stay text when a clerk edits it (a tag, a CNS number, a MAC address): styled `@`.
        case identifier
        /// Any other text.
        case text
        /// Numbers (coordinates).
        case number
        /// Dates, shown `yyyy-mm-dd`.
        case date
        /// Amounts of money, shown with two decimals (`1234.50`).
        case money
    }

    /// One column: its header and kind.
    struct Column: Sendable {
        var name: String
        var kind: ColumnKind

        init(_ name: String, _ kind: ColumnKind) {
            self.name = name
            self.kind = kind
        }
    }

    /// The rows a sheet holds below its header: Excel's 1,048,576 less one.
    static let rowsPerSheet = 1_048_575
    /// The rows deflated as one block.
    static let rowsPerBlock = 8_192
    /// The rows whose values size the columns, and the widest a column gets, in characters.
    static let measuredRows = 1_000
    static let maximumWidth = 60

    /// Writes the workbook to `path` atomically. `row(index, &cells)` writes the cells of row `index` (from 0) in
    /// column order, and is called from several threads at once. With `synchronizingFolder` false the folder is
    /// left for the caller to flush (see `AtomicFileWriter.commit`).
    static func write(
        sheet: String, columns: [Column], rowCount: Int, sharedStrings: SharedStringTable = SharedStringTable(),
        row: @Sendable (Int, inout WorksheetRow) -> Void, to path: String, synchronizingFolder: Bool = true,
        level: Int32 = ZipDeflater.standardLevel
    ) throws(StocktakeError) {
        let file = try AtomicFileWriter(path: path)
        let zip = ZipWriter(file: file, level: level)
        try write(
            sheet: sheet, columns: columns, rowCount: rowCount, sharedStrings: sharedStrings, row: row, into: zip)
        try file.commit(synchronizingFolder: synchronizingFolder)
    }

    /// The workbook's bytes; `rowsPerSheet` is lowered by tests to exercise further sheets.
    static func bytes(
        sheet: String, columns: [Column], rowCount: Int, rowsPerSheet: Int = rowsPerSheet,
        sharedStrings: SharedStringTable = SharedStringTable(), row: @Sendable (Int, inout WorksheetRow) -> Void
    ) -> [UInt8] {
        final class Collected { var bytes: [UInt8] = [] }
        let collected = Collected()
        let zip = ZipWriter(path: sheet + ".xlsx") { (piece: [UInt8]) throws(StocktakeError) in
            collected.bytes += piece
        }
        do {
            try write(
                sheet: sheet, columns: columns, rowCount: rowCount, rowsPerSheet: rowsPerSheet,
                sharedStrings: sharedStrings, row: row, into: zip)
        } catch {
            preconditionFailure("writing into memory cannot fail: \(error)")
        }
        return collected.bytes
    }

    /// Writes every part of the workbook into `zip` and finishes it. The cells that `row` writes with
    /// `WorksheetRow.shared(_:)` refer to `sharedStrings`, written as `xl/sharedStrings.xml` when it is not empty.
    static func write(
        sheet: String, columns: [Column], rowCount: Int, rowsPerSheet: Int = rowsPerSheet,
        sharedStrings: SharedStringTable = SharedStringTable(), row: @Sendable (Int, inout WorksheetRow) -> Void,
        into zip: ZipWriter
    ) throws(StocktakeError) {
        precondition(!columns.isEmpty && columns.count <= 16_384, "a sheet has 1 to 16,384 columns")
        let sheetCount = max(1, (rowCount + rowsPerSheet - 1) / rowsPerSheet)
        let names = (0..<sheetCount).map { $0 == 0 ? sheet : "\(sheet) (\($0 + 1))" }
        let letters = columns.indices.map(columnLetters)
        let hasSharedStrings = !sharedStrings.isEmpty
        let widths = measure(
            columns: columns, letters: letters, sharedWidths: hasSharedStrings ? sharedStrings.widths : [],
            rowCount: rowCount, row: row)
        try zip.addEntry(
            name: "[Content_Types].xml", contents: Array(contentTypes(sheetCount, hasSharedStrings).utf8))
        try zip.addEntry(name: "_rels/.rels", contents: Array(packageRelationships.utf8))
        let lastRows = (0..<sheetCount).map { min(rowCount - $0 * rowsPerSheet, rowsPerSheet) + 1 }
        try zip.addEntry(
            name: "xl/workbook.xml",
            contents: Array(workbook(names, lastColumn: letters.last!, lastRows: lastRows).utf8))
        try zip.addEntry(
            name: "xl/_rels/workbook.xml.rels",
            contents: Array(workbookRelationships(sheetCount, hasSharedStrings).utf8))
        try zip.addEntry(name: "xl/styles.xml", contents: Array(styles.utf8))
        if hasSharedStrings { try zip.addEntry(name: "xl/sharedStrings.xml", contents: sharedStrings.part()) }
        for index in 0..<sheetCount {
            let first = index * rowsPerSheet
            let rows = first..<min(rowCount, first + rowsPerSheet)
            try zip.beginEntry(name: "xl/worksheets/sheet\(index + 1).xml")
            try zip.write(
                Array(
                    sheetStart(
                        columns: columns, letters: letters, widths: widths, lastRow: rows.count + 1,
                        isSelected: index == 0
                    ).utf8))
            var header = WorksheetRow(columns: columns, letters: letters)
            header.begin(1)
            for column in columns { header.header(column.name) }
            header.end()
            try zip.write(header.output)
            try writeRows(rows, columns: columns, letters: letters, row: row, into: zip)
            try zip.write(Array(sheetEnd(lastColumn: letters.last!, lastRow: rows.count + 1).utf8))
            try zip.endEntry()
        }
        try zip.finish()
    }

    /// Writes the rows `rows` (table indices) as sheet rows 2, 3, …: blocks of rows are formatted and deflated on
    /// all cores, then added in order.
    private static func writeRows(
        _ rows: Range<Int>, columns: [Column], letters: [[UInt8]], row: @Sendable (Int, inout WorksheetRow) -> Void,
        into zip: ZipWriter
    ) throws(StocktakeError) {
        let blocksAtOnce = max(1, min(Parallel.threads, 4))
        let level = zip.level
        var start = rows.lowerBound
        while start < rows.upperBound {
            let bounds = (0...blocksAtOnce).map { min(rows.upperBound, start + $0 * rowsPerBlock) }
            let blockCount = (0..<blocksAtOnce).filter { bounds[$0] < bounds[$0 + 1] }.count
            let blocks = ResultSlots<ZipWriter.CompressedBlock>(count: blockCount)
            DispatchQueue.concurrentPerform(iterations: blockCount) { block in
                var cells = WorksheetRow(columns: columns, letters: letters)
                cells.output.reserveCapacity((bounds[block + 1] - bounds[block]) * 64 * columns.count)
                for index in bounds[block]..<bounds[block + 1] {
                    cells.begin(index - rows.lowerBound + 2)
                    row(index, &cells)
                    cells.end()
                }
                blocks[block] = ZipWriter.CompressedBlock.compress(cells.output, level: level)
            }
            for block in 0..<blockCount { try zip.write(blocks[block]!) }
            start = bounds[blockCount]
        }
    }

    /// The width of each column, in characters: its header's (with room for the filter button) or its widest value
    /// among the first rows', whichever is wider, at most `maximumWidth`.
    private static func measure(
        columns: [Column], letters: [[UInt8]], sharedWidths: [Int], rowCount: Int,
        row: (Int, inout WorksheetRow) -> Void
    ) -> [Int] {
        var cells = WorksheetRow(columns: columns, letters: letters)
        cells.widths = columns.map { $0.name.count + 3 }
        cells.sharedWidths = sharedWidths
        for index in 0..<min(rowCount, measuredRows) {
            cells.begin(index + 2)
            row(index, &cells)
            cells.end()
            cells.output.removeAll(keepingCapacity: true)
        }
        return cells.widths!.map { min($0 + 1, maximumWidth) }
    }

    /// The letters of column `index` (from 0): `A` … `Z`, `AA` … `XFD`.
    static func columnLetters(_ index: Int) -> [UInt8] {
        var letters: [UInt8] = []
        var rest = index + 1
        while rest > 0 {
            letters.insert(UInt8(ascii: "A") + UInt8((rest - 1) % 26), at: 0)
            rest = (rest - 1) / 26
        }
        return letters
    }

    // MARK: - Parts

    private static let declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
    private static let mainNamespace = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    private static let relationshipNamespace =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

    private static func contentTypes(_ sheetCount: Int, _ hasSharedStrings: Bool) -> String {
        let sheets = (1...sheetCount).map {
            "<Override PartName=\"/xl/worksheets/sheet\($0).xml\" ContentType=\"application/"
                + "vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>"
        }
        return declaration
            + "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
            + "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
            + "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
            + "<Override PartName=\"/xl/workbook.xml\" ContentType=\"application/"
            + "vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
            + sheets.joined()
            + "<Override PartName=\"/xl/styles.xml\" ContentType=\"application/"
            + "vnd.openxmlformats-officedocument.spreadsheetml.styles+xml\"/>"
            + (hasSharedStrings
                ? "<Override PartName=\"/xl/sharedStrings.xml\" ContentType=\"application/"
                    + "vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml\"/>" : "")
            + "</Types>"
    }

    private static let packageRelationships =
        declaration
        + "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
        + "<Relationship Id=\"rId1\" Type=\"\(relationshipNamespace)/officeDocument\" Target=\"xl/workbook.xml\"/>"
        + "</Relationships>"

    private static func workbook(_ names: [String], lastColumn: [UInt8], lastRows: [Int]) -> String {
        let column = String(decoding: lastColumn, as: UTF8.self)
        let sheets = names.enumerated().map { index, name in
            "<sheet name=\"\(attribute(name))\" sheetId=\"\(index + 1)\" r:id=\"rId\(index + 1)\"/>"
        }
        // Excel keeps each sheet's filter range as a hidden name; the sheet name is quoted, its quotes doubled.
        let filters = names.enumerated().map { index, name in
            let quoted = "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
            return "<definedName name=\"_xlnm._FilterDatabase\" localSheetId=\"\(index)\" hidden=\"1\">"
                + text(quoted) + "!$A$1:$\(column)$\(lastRows[index])</definedName>"
        }
        return declaration
            + "<workbook xmlns=\"\(mainNamespace)\" xmlns:r=\"\(relationshipNamespace)\">"
            + "<workbookPr/><bookViews><workbookView activeTab=\"0\"/></bookViews>"
            + "<sheets>" + sheets.joined() + "</sheets>"
            + "<definedNames>" + filters.joined() + "</definedNames>"
            + "</workbook>"
    }

    private static func workbookRelationships(_ sheetCount: Int, _ hasSharedStrings: Bool) -> String {
        let sheets = (1...sheetCount).map {
            "<Relationship Id=\"rId\($0)\" Type=\"\(relationshipNamespace)/worksheet\" "
                + "Target=\"worksheets/sheet\($0).xml\"/>"
        }
        return declaration
            + "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
            + sheets.joined()
            + "<Relationship Id=\"rId\(sheetCount + 1)\" Type=\"\(relationshipNamespace)/styles\" "
            + "Target=\"styles.xml\"/>"
            + (hasSharedStrings
                ? "<Relationship Id=\"rId\(sheetCount + 2)\" Type=\"\(relationshipNamespace)/sharedStrings\" "
                    + "Target=\"sharedStrings.xml\"/>" : "")
            + "</Relationships>"
    }

    /// Styles (the `s` that `WorksheetRow` gives cells): 0 plain, 1 the bold header, 2 dates `yyyy-mm-dd` (custom
    /// format 164), 3 text (`@`, format 49), 4 money (`0.00`, built-in format 2).
    private static let styles =
        declaration
        + "<styleSheet xmlns=\"\(mainNamespace)\">"
        + "<numFmts count=\"1\"><numFmt numFmtId=\"164\" formatCode=\"yyyy-mm-dd\"/></numFmts>"
        + "<fonts count=\"2\">"
        + "<font><sz val=\"11\"/><name val=\"Calibri\"/><family val=\"2\"/></font>"
        + "<font><b/><sz val=\"11\"/><name val=\"Calibri\"/><family val=\"2\"/></font>"
        + "</fonts>"
        + "<fills count=\"2\"><fill><patternFill patternType=\"none\"/></fill>"
        + "<fill><patternFill patternType=\"gray125\"/></fill></fills>"
        + "<borders count=\"1\"><border><left/><right/><top/><bottom/><diagonal/></border></borders>"
        + "<cellStyleXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\"/></cellStyleXfs>"
        + "<cellXfs count=\"5\">"
        + "<xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\"/>"
        + "<xf numFmtId=\"49\" fontId=\"1\" fillId=\"0\" borderId=\"0\" xfId=\"0\" applyNumberFormat=\"1\" "
        + "applyFont=\"1\"/>"
        + "<xf numFmtId=\"164\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\" applyNumberFormat=\"1\"/>"
        + "<xf numFmtId=\"49\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\" applyNumberFormat=\"1\"/>"
        + "<xf numFmtId=\"2\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\" applyNumberFormat=\"1\"/>"
        + "</cellXfs>"
        + "<cellStyles count=\"1\"><cellStyle name=\"Normal\" xfId=\"0\" builtinId=\"0\"/></cellStyles>"
        + "</styleSheet>"

    private static func sheetStart(
        columns: [Column], letters: [[UInt8]], widths: [Int], lastRow: Int, isSelected: Bool
    ) -> String {
        let lastColumn = String(decoding: letters.last!, as: UTF8.self)
        let widthList = widths.enumerated().map { index, width in
            "<col min=\"\(index + 1)\" max=\"\(index + 1)\" width=\"\(width)\" customWidth=\"1\"/>"
        }
        return declaration
            + "<worksheet xmlns=\"\(mainNamespace)\" xmlns:r=\"\(relationshipNamespace)\">"
            + "<dimension ref=\"A1:\(lastColumn)\(lastRow)\"/>"
            + "<sheetViews><sheetView \(isSelected ? "tabSelected=\"1\" " : "")workbookViewId=\"0\">"
            + "<pane ySplit=\"1\" topLeftCell=\"A2\" activePane=\"bottomLeft\" state=\"frozen\"/>"
            + "<selection pane=\"bottomLeft\" activeCell=\"A2\" sqref=\"A2\"/>"
            + "</sheetView></sheetViews>"
            + "<sheetFormatPr defaultRowHeight=\"15\"/>"
            + "<cols>" + widthList.joined() + "</cols>"
            + "<sheetData>"
    }

    private static func sheetEnd(lastColumn: [UInt8], lastRow: Int) -> String {
        "</sheetData><autoFilter ref=\"A1:\(String(decoding: lastColumn, as: UTF8.self))\(lastRow)\"/>"
            + "<pageMargins left=\"0.7\" right=\"0.7\" top=\"0.75\" bottom=\"0.75\" header=\"0.3\" footer=\"0.3\"/>"
            + "</worksheet>"
    }

    /// `text` escaped as XML character data.
    private static func text(_ text: String) -> String {
        var text = text
        var output: [UInt8] = []
        text.withUTF8 { WorksheetRow.appendEscaped($0, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` escaped for an attribute in double quotes.
    private static func attribute(_ text: String) -> String {
        Self.text(text).replacingOccurrences(of: "\"", with: "&quot;")
    }
}
