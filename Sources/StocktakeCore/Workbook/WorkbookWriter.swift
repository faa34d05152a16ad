import Foundation

/// Writes a table as an Excel workbook (.xlsx): a header row, frozen and filtered, over typed cells.
///
/// The sheet's XML is made a block of rows at a time, each block deflated on its own (on all cores, see
/// `PieceWriter`) and streamed into the ZIP file in order, so a million-row table never sits whole in memory.
/// Blocks hold a fixed number of rows, so the same table makes the same bytes whatever the number of cores. A
/// table longer than a sheet's 1,048,576 rows continues on further sheets (`cleaned`, `cleaned (2)`, …), each with
/// the header. A `WorkbookWriter` is one such workbook, which `PieceWriter` can write alongside other files.
final class WorkbookWriter: PieceFile, @unchecked Sendable {
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

    /// What the sheet holds: the shared strings, and `row(index, &cells)`, which writes the cells of row `index`
    /// (from 0) in column order and is called from several threads at once. The cells it writes with
    /// `WorksheetRow.shared(_:)` refer to `sharedStrings`, written as `xl/sharedStrings.xml` when it is not empty.
    struct Contents: Sendable {
        var sharedStrings = SharedStringTable()
        var row: @Sendable (Int, inout WorksheetRow) -> Void
    }

    /// Where the workbook goes.
    enum Target {
        /// A file, written atomically; with `synchronizingFolder` false its folder is left for the caller to flush
        /// (see `AtomicFileWriter.commit`).
        case file(path: String, synchronizingFolder: Bool)
        /// Memory, for `bytes`.
        case memory
    }

    /// The rows a sheet holds below its header: Excel's 1,048,576 less one.
    static let rowsPerSheet = 1_048_575
    /// The rows deflated as one block.
    static let rowsPerBlock = 2_048
    /// The rows whose values size the columns, and the widest a column gets, in characters.
    static let measuredRows = 1_000
    static let maximumWidth = 60

    let pieceCount: Int
    private let target: Target
    private let sheetNames: [String]
    private let columns: [Column]
    private let letters: [[UInt8]]
    private let rowCount: Int
    private let rowsPerSheet: Int
    /// Each piece's sheet and rows (table indices); a table without rows has one empty piece.
    private let pieces: [(sheet: Int, rows: Range<Int>)]
    private let blocks: ResultSlots<ZipWriter.CompressedBlock>
    /// The contents, made once by `prepare()` under `preparation`, and the columns' widths.
    private let makeContents: @Sendable () -> Contents
    private let preparation = NSLock()
    private var contents: Contents?
    private var widths: [Int] = []
    private var file: AtomicFileWriter?
    private var zip: ZipWriter?
    /// The bytes written, for `Target.memory`.
    private var collected: [UInt8] = []

    /// A workbook of `rowCount` rows; `contents` is called once, on whichever thread prepares the workbook.
    /// `rowsPerSheet` is lowered by tests to exercise further sheets.
    init(
        sheet: String, columns: [Column], rowCount: Int, rowsPerSheet: Int = WorkbookWriter.rowsPerSheet,
        to target: Target, contents: @escaping @Sendable () -> Contents
    ) {
        precondition(!columns.isEmpty && columns.count <= 16_384, "a sheet has 1 to 16,384 columns")
        self.target = target
        self.columns = columns
        self.rowCount = rowCount
        self.rowsPerSheet = rowsPerSheet
        makeContents = contents
        letters = columns.indices.map(Self.columnLetters)
        let sheetCount = max(1, (rowCount + rowsPerSheet - 1) / rowsPerSheet)
        sheetNames = (0..<sheetCount).map { $0 == 0 ? sheet : "\(sheet) (\($0 + 1))" }
        var pieces: [(sheet: Int, rows: Range<Int>)] = []
        for index in 0..<sheetCount {
            let rows = (index * rowsPerSheet)..<min(rowCount, (index + 1) * rowsPerSheet)
            var start = rows.lowerBound
            repeat {
                let end = min(rows.upperBound, start + Self.rowsPerBlock)
                pieces.append((index, start..<end))
                start = end
            } while start < rows.upperBound
        }
        self.pieces = pieces
        pieceCount = pieces.count
        blocks = ResultSlots(count: pieces.count)
    }

    /// Writes the workbook to `path` atomically, formatting and deflating its rows on all cores. With
    /// `synchronizingFolder` false the folder is left for the caller to flush (see `AtomicFileWriter.commit`).
    static func write(
        sheet: String, columns: [Column], rowCount: Int, sharedStrings: SharedStringTable = SharedStringTable(),
        row: @escaping @Sendable (Int, inout WorksheetRow) -> Void, to path: String, synchronizingFolder: Bool = true
    ) throws(StocktakeError) {
        let writer = WorkbookWriter(
            sheet: sheet, columns: columns, rowCount: rowCount,
            to: .file(path: path, synchronizingFolder: synchronizingFolder)
        ) { Contents(sharedStrings: sharedStrings, row: row) }
        try PieceWriter.write([writer])
    }

    /// The workbook's bytes; `rowsPerSheet` is lowered by tests to exercise further sheets.
    static func bytes(
        sheet: String, columns: [Column], rowCount: Int, rowsPerSheet: Int = rowsPerSheet,
        sharedStrings: SharedStringTable = SharedStringTable(),
        row: @escaping @Sendable (Int, inout WorksheetRow) -> Void
    ) -> [UInt8] {
        let writer = WorkbookWriter(
            sheet: sheet, columns: columns, rowCount: rowCount, rowsPerSheet: rowsPerSheet, to: .memory
        ) { Contents(sharedStrings: sharedStrings, row: row) }
        do {
            try PieceWriter.write([writer])
        } catch {
            preconditionFailure("writing into memory cannot fail: \(error)")
        }
        return writer.collected
    }

    // MARK: - Pieces

    /// Whether the first piece holds every row that sizes the columns, so that they are measured while it is made
    /// rather than formatted once more beforehand (always, unless tests lower `rowsPerSheet`).
    private var measuresInFirstPiece: Bool {
        !pieces[0].rows.isEmpty && pieces[0].rows.count >= min(rowCount, Self.measuredRows)
    }

    func prepare() {
        preparation.withLock {
            guard contents == nil else { return }
            let contents = makeContents()
            if !measuresInFirstPiece {
                widths = Self.measure(
                    columns: columns, letters: letters, sharedWidths: contents.sharedStrings.widths,
                    rowCount: rowCount, row: contents.row)
            }
            self.contents = contents
        }
    }

    /// Makes piece `index`. The first piece also sizes the columns, from its first `measuredRows` rows: its
    /// `write(piece:)`, which writes the widths, comes after it is made.
    func make(piece index: Int) {
        prepare()
        let (sheet, rows) = pieces[index]
        guard !rows.isEmpty, let contents else { return }
        let row = contents.row
        var cells = WorksheetRow(columns: columns, letters: letters, capacity: rows.count * 32 * columns.count)
        let measuring = index == 0 && measuresInFirstPiece
        if measuring { Self.startMeasuring(&cells, columns: columns, sharedWidths: contents.sharedStrings.widths) }
        let firstRow = sheet * rowsPerSheet
        for index in rows {
            if measuring && index == Self.measuredRows { widths = Self.measuredWidths(&cells) }
            cells.begin(index - firstRow + 2)
            row(index, &cells)
            cells.end()
        }
        if cells.widths != nil { widths = Self.measuredWidths(&cells) }
        blocks[index] = cells.output.withUnsafeBytes { ZipWriter.CompressedBlock.compress($0) }
    }

    func open() throws(StocktakeError) {
        let zip: ZipWriter
        switch target {
        case .file(let path, _):
            let file = try AtomicFileWriter(path: path)
            self.file = file
            zip = ZipWriter(file: file)
        case .memory:
            zip = ZipWriter(path: (sheetNames[0]) + ".xlsx") {
                [unowned self] (piece: [UInt8]) throws(StocktakeError) in
                collected += piece
            }
        }
        self.zip = zip
        let sharedStrings = contents!.sharedStrings
        let hasSharedStrings = !sharedStrings.isEmpty
        let sheetCount = sheetNames.count
        try zip.addEntry(
            name: "[Content_Types].xml", contents: Array(Self.contentTypes(sheetCount, hasSharedStrings).utf8))
        try zip.addEntry(name: "_rels/.rels", contents: Array(Self.packageRelationships.utf8))
        try zip.addEntry(
            name: "xl/workbook.xml",
            contents: Array(Self.workbook(sheetNames, lastColumn: letters.last!, lastRows: lastRows).utf8))
        try zip.addEntry(
            name: "xl/_rels/workbook.xml.rels",
            contents: Array(Self.workbookRelationships(sheetCount, hasSharedStrings).utf8))
        try zip.addEntry(name: "xl/styles.xml", contents: Array(Self.styles.utf8))
        if hasSharedStrings { try zip.addEntry(name: "xl/sharedStrings.xml", contents: sharedStrings.part()) }
    }

    func write(piece index: Int) throws(StocktakeError) {
        let (sheet, rows) = pieces[index]
        if index == 0 || pieces[index - 1].sheet != sheet {
            if index > 0 { try endSheet(pieces[index - 1].sheet) }
            try beginSheet(sheet)
        }
        guard !rows.isEmpty else { return }
        let block = blocks[index]!
        blocks[index] = nil
        try zip!.write(block)
    }

    /// Ends the archive and starts flushing the file to disk, so that it waits for the disk while the other files
    /// are made.
    func close() throws(StocktakeError) {
        try endSheet(pieces[pieces.count - 1].sheet)
        try zip!.finish()
        try file?.startFlushing()
    }

    func commit() throws(StocktakeError) {
        if case .file(_, let synchronizingFolder) = target {
            try file!.commit(synchronizingFolder: synchronizingFolder)
            file = nil
        }
        zip = nil
    }

    /// The last row of each sheet, counting the header.
    private var lastRows: [Int] {
        sheetNames.indices.map { min(rowCount - $0 * rowsPerSheet, rowsPerSheet) + 1 }
    }

    /// Opens the entry of sheet `sheet` (from 0) and writes what comes before its rows: the sheet's properties and
    /// the header.
    private func beginSheet(_ sheet: Int) throws(StocktakeError) {
        let zip = zip!
        try zip.beginEntry(name: "xl/worksheets/sheet\(sheet + 1).xml")
        try zip.write(
            Array(
                Self.sheetStart(
                    columns: columns, letters: letters, widths: widths, lastRow: lastRows[sheet],
                    isSelected: sheet == 0
                ).utf8))
        var header = WorksheetRow(columns: columns, letters: letters)
        header.begin(1)
        for column in columns { header.header(column.name) }
        header.end()
        try header.output.withUnsafeBytes { bytes throws(StocktakeError) in try zip.write(bytes) }
    }

    /// Writes what comes after the rows of sheet `sheet` and closes its entry.
    private func endSheet(_ sheet: Int) throws(StocktakeError) {
        try zip!.write(Array(Self.sheetEnd(lastColumn: letters.last!, lastRow: lastRows[sheet]).utf8))
        try zip!.endEntry()
    }

    /// The width of each column, in characters: its header's (with room for the filter button) or its widest value
    /// among the first rows', whichever is wider, at most `maximumWidth`.
    private static func measure(
        columns: [Column], letters: [[UInt8]], sharedWidths: [Int], rowCount: Int,
        row: (Int, inout WorksheetRow) -> Void
    ) -> [Int] {
        var cells = WorksheetRow(columns: columns, letters: letters)
        startMeasuring(&cells, columns: columns, sharedWidths: sharedWidths)
        for index in 0..<min(rowCount, measuredRows) {
            cells.begin(index + 2)
            row(index, &cells)
            cells.end()
            cells.output.removeAll()
        }
        return measuredWidths(&cells)
    }

    /// Starts measuring the cells `cells` writes: each column at least as wide as its header, with room for the
    /// filter button.
    private static func startMeasuring(_ cells: inout WorksheetRow, columns: [Column], sharedWidths: [Int]) {
        cells.widths = columns.map { $0.name.count + 3 }
        cells.sharedWidths = sharedWidths
    }

    /// Stops measuring and returns the columns' widths: the widest text plus one, at most `maximumWidth`.
    private static func measuredWidths(_ cells: inout WorksheetRow) -> [Int] {
        defer { cells.widths = nil }
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
