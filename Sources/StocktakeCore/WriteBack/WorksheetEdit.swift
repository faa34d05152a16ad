/// The write-back of a central sheet that is a worksheet of an `.xlsx` workbook: what the planner reads, and the
/// workbook it makes of the planned changes.
///
/// The planner works on delimited text, so the worksheet's rows are given to it as the reader delivers them (the
/// texts reconciliation read), one comma-separated line per row, each line remembering its row number. Cells that
/// hold a formula (shared and array formulas and the cells an array formula fills included) or rich text are
/// marked for the planner to leave alone, as it leaves damaged text.
///
/// The edited workbook changes only the worksheet's part, and in it only the changed cells: a changed cell keeps
/// its reference and style and becomes an inline string (text, so a tag's leading zeros survive and no formula
/// guard is needed); a cell a row does not have yet is inserted at its column; appended rows follow the last row,
/// and the `dimension` grows to hold them. Every other entry of the ZIP file is copied byte for byte.
struct WorksheetEdit: Sendable {
    /// The workbook as pulled.
    let archive: ZipArchive
    /// The worksheet's entry and its inflated XML.
    let entry: ZipEntry
    let part: [UInt8]
    /// The worksheet's name, for messages.
    let sheetName: String
    let layout: WorksheetLayout
    /// The rows as the planner reads them: comma-separated, every cell quoted, one line per row.
    let text: [UInt8]
    /// The cells the planner must leave alone, as `record << 32 | cell`, in order.
    let protectedCells: [UInt64]
    /// Where each line of `text` starts, and the sheet row it stands for.
    private let recordStarts: [Int]
    private let recordRows: [Int]

    /// Reads the worksheet `sheet` (the first visible one when `nil`) of the workbook `bytes`, named `fileName`,
    /// within `limits` (those it was read with as a source).
    ///
    /// Throws the error reading the workbook as a source throws, naming the file.
    init(bytes: [UInt8], fileName: String, sheet: String?, limits: ReadLimits = ReadLimits()) throws(StocktakeError) {
        let source = WorkbookSource(
            file: SourceFile(path: fileName, role: .central, sheet: sheet), bytes: bytes, name: fileName)
        var text: [UInt8] = []
        var recordStarts: [Int] = []
        var recordRows: [Int] = []
        var recordWidths: [Int] = []
        let workbook: Workbook
        let selected: WorkbookSheet
        let entry: ZipEntry
        let part: [UInt8]
        let layout: WorksheetLayout
        do {
            workbook = try Workbook(bytes: bytes, name: fileName)
            selected =
                try sheet.map { name throws(WorkbookError) in try workbook.sheet(named: name) }
                ?? workbook.defaultSheet
            guard let found = workbook.archive.entry(named: selected.part) else {
                throw WorkbookError.missingPart(file: fileName, part: selected.part)
            }
            entry = found
            do { part = try workbook.archive.contents(of: entry) } catch { throw WorkbookError(error) }
            do {
                layout = try part.withUnsafeBufferPointer { buffer throws(XMLError) in
                    try WorksheetLayout(bytes: buffer)
                }
            } catch {
                if case .documentTypeDeclaration = error {
                    throw WorkbookError.entityDeclaration(file: fileName, part: selected.part)
                }
                throw WorkbookError.damagedPart(file: fileName, part: selected.part, error)
            }
            try workbook.forEachRecord(in: selected, limits: limits) { record in
                recordStarts.append(text.count)
                recordRows.append(record.line)
                recordWidths.append(record.count)
                for field in 0..<record.count {
                    if field > 0 { text.append(ASCII.comma) }
                    text.append(ASCII.quote)
                    for byte in record[field] {
                        text.append(byte)
                        if byte == ASCII.quote { text.append(ASCII.quote) }
                    }
                    text.append(ASCII.quote)
                }
                text.append(ASCII.lineFeed)
            }
        } catch let error as WorkbookError {
            throw source.translate(error)
        } catch {
            throw .badData(path: fileName, reason: "\(error)")
        }
        var rowIndexes: [Int: Int] = [:]
        for index in layout.rows.indices where rowIndexes[layout.rows[index].number] == nil {
            rowIndexes[layout.rows[index].number] = index
        }
        var protectedCells: [UInt64] = []
        for record in recordRows.indices {
            guard let index = rowIndexes[recordRows[record]] else { continue }
            for cell in layout.rows[index].cells where cell.isProtected && cell.column < recordWidths[record] {
                protectedCells.append(UInt64(record) << 32 | UInt64(cell.column))
            }
        }
        self.archive = workbook.archive
        self.entry = entry
        self.part = part
        self.sheetName = selected.name
        self.layout = layout
        self.text = text
        self.protectedCells = protectedCells.sorted()
        self.recordStarts = recordStarts
        self.recordRows = recordRows
    }

    // MARK: Changes as cells

    /// A changed cell of an existing row.
    private struct CellEdit {
        var row: Int
        var column: Int
        /// The position of the change in `SheetChanges`.
        var change: Int
    }

    /// The changes as cells of existing rows (by row, then column) and cells of appended rows (by row).
    private func edits(_ changes: SheetChanges) -> (cells: [CellEdit], appended: [[CellEdit]]) {
        var cells: [CellEdit] = []
        var appended: [[CellEdit]] = []
        var lastAddedRow: UInt32?
        for index in changes.indices {
            let entry = changes.entries[index]
            if entry.reason == .added {
                if entry.row != lastAddedRow {
                    appended.append([])
                    lastAddedRow = entry.row
                }
                let number = layout.lastRowNumber + appended.count
                appended[appended.count - 1].append(CellEdit(row: number, column: Int(entry.column), change: index))
                continue
            }
            let record = self.record(at: Int(entry.start))
            cells.append(CellEdit(row: recordRows[record], column: Int(entry.column), change: index))
        }
        cells.sort { ($0.row, $0.column) < ($1.row, $1.column) }
        return (cells, appended)
    }

    /// The line of `text` holding `offset`.
    private func record(at offset: Int) -> Int {
        var low = 0
        var high = recordStarts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if recordStarts[middle] <= offset { low = middle } else { high = middle }
        }
        return low
    }

    /// Why `changes` cannot be made to this worksheet exactly; `nil` when they can.
    func refusal(for changes: SheetChanges) -> WorksheetEditRefusal? {
        guard !changes.isEmpty else { return nil }
        var names = Set<[UInt8]>()
        for entry in archive.entries where !names.insert(entry.nameBytes).inserted {
            return .duplicateEntry(file: archive.name, name: entry.name)
        }
        guard layout.rowsAreOrdered else { return .rowsOutOfOrder(file: archive.name, sheet: sheetName) }
        let cells = edits(changes).cells
        for edit in cells {
            guard let row = layout.row(numbered: edit.row) else {
                return .rowsOutOfOrder(file: archive.name, sheet: sheetName)
            }
            // Out of order, a cell cannot be inserted in its place, and a column written twice is one cell to the
            // reader but two elements to replace.
            let existing = row.cells.lazy.filter { $0.column == edit.column }.count
            if !row.cellsAreOrdered && existing != 1 {
                return .cellsOutOfOrder(file: archive.name, sheet: sheetName, row: edit.row)
            }
        }
        return nil
    }

    // MARK: The edited workbook

    /// The workbook with `changes` made to the worksheet, which `refusal(for:)` accepted; every other entry is
    /// copied byte for byte.
    func editedWorkbook(_ changes: SheetChanges) -> [UInt8] {
        let edited = editedPart(changes)
        var output: [UInt8] = []
        output.reserveCapacity(archive.bytes.count + edited.count / 4)
        let writer = ZipWriter(path: archive.name) { (bytes: [UInt8]) throws(StocktakeError) in
            output.append(contentsOf: bytes)
        }
        do {
            for entry in archive.entries {
                guard entry != self.entry else {
                    try writer.addEntry(name: entry.name, contents: edited)
                    continue
                }
                let record = archive.storedRecord(of: entry)
                let versionNeeded = UInt16(record[record.startIndex + 4]) | UInt16(record[record.startIndex + 5]) << 8
                try writer.copyEntry(
                    record: record,
                    entry: ZipWriter.CopiedEntry(
                        name: entry.nameBytes, versionNeeded: versionNeeded, flags: entry.flags, method: entry.method,
                        modificationTime: entry.modificationTime, modificationDate: entry.modificationDate,
                        crc32: entry.crc32, compressedSize: entry.compressedSize,
                        uncompressedSize: entry.uncompressedSize))
            }
            try writer.finish()
        } catch {
            // Entries of one archive have distinct names (`refusal(for:)` checked), and memory takes any size.
            preconditionFailure("rewriting \(archive.name) in memory failed: \(error)")
        }
        return output
    }

    /// The worksheet's XML with `changes` made.
    func editedPart(_ changes: SheetChanges) -> [UInt8] {
        let (cells, appended) = edits(changes)
        // Replacements of the part's bytes: `range` becomes `bytes`; in order of position, insertions at one
        // place in the order made.
        var replacements: [(range: Range<Int>, bytes: [UInt8])] = []
        var widestColumn = -1
        for edit in cells {
            guard let row = layout.row(numbered: edit.row) else { continue }
            widestColumn = max(widestColumn, edit.column)
            var cell: [UInt8] = []
            if let existing = row.cells.first(where: { $0.column == edit.column }) {
                appendCell(edit, style: part[existing.style], changes, to: &cell)
                replacements.append((existing.range, cell))
            } else {
                appendCell(edit, style: [], changes, to: &cell)
                let position = row.cells.first(where: { $0.column > edit.column })?.range.lowerBound ?? row.contentEnd
                replacements.append((position..<position, cell))
            }
        }
        // A sheet with rows has a `sheetData` element with an end tag (the reader read its rows), so appended rows
        // always have a place.
        if let end = layout.sheetDataEnd, !appended.isEmpty {
            var rows: [UInt8] = []
            for row in appended {
                rows.append(contentsOf: "<".utf8)
                rows.append(contentsOf: layout.prefix)
                rows.append(contentsOf: "row r=\"\(row[0].row)\">".utf8)
                for edit in row.sorted(by: { $0.column < $1.column }) {
                    widestColumn = max(widestColumn, edit.column)
                    appendCell(edit, style: [], changes, to: &rows)
                }
                rows.append(contentsOf: "</".utf8)
                rows.append(contentsOf: layout.prefix)
                rows.append(contentsOf: "row>".utf8)
            }
            replacements.append((end..<end, rows))
        }
        if let dimension = layout.dimension,
            let area = part.withUnsafeBufferPointer({ WorksheetLayout.area(.init(rebasing: $0[dimension])) })
        {
            let lastRow = max(area.rows.upperBound, appended.last?.first?.row ?? 0)
            let lastColumn = max(area.columns.upperBound, widestColumn)
            if lastRow != area.rows.upperBound || lastColumn != area.columns.upperBound {
                let reference =
                    Self.letters(area.columns.lowerBound) + "\(area.rows.lowerBound):" + Self.letters(lastColumn)
                    + "\(lastRow)"
                replacements.append((dimension, Array(reference.utf8)))
            }
        }
        let order = replacements.indices.sorted {
            (replacements[$0].range.lowerBound, $0) < (replacements[$1].range.lowerBound, $1)
        }
        var output: [UInt8] = []
        output.reserveCapacity(part.count + replacements.reduce(0) { $0 + $1.bytes.count })
        var cursor = 0
        for index in order {
            let (range, bytes) = replacements[index]
            output.append(contentsOf: part[cursor..<range.lowerBound])
            output.append(contentsOf: bytes)
            cursor = range.upperBound
        }
        output.append(contentsOf: part[cursor...])
        return output
    }

    /// Appends the cell of `edit` with its new text as an inline string, with the style `style` when not empty.
    private func appendCell(
        _ edit: CellEdit, style: ArraySlice<UInt8>, _ changes: SheetChanges, to output: inout [UInt8]
    ) {
        let prefix = layout.prefix
        func tag(_ name: String, closing: Bool = false) {
            output.append(contentsOf: (closing ? "</" : "<").utf8)
            output.append(contentsOf: prefix)
            output.append(contentsOf: name.utf8)
        }
        tag("c")
        output.append(contentsOf: " r=\"\(Self.letters(edit.column))\(edit.row)\"".utf8)
        if !style.isEmpty {
            output.append(contentsOf: " s=\"".utf8)
            output.append(contentsOf: style)
            output.append(ASCII.quote)
        }
        let isEmpty = changes.withAfterText(edit.change) { $0.isEmpty }
        guard !isEmpty else {
            output.append(contentsOf: "/>".utf8)
            return
        }
        output.append(contentsOf: " t=\"inlineStr\">".utf8)
        tag("is>")
        tag("t xml:space=\"preserve\">")
        changes.withAfterText(edit.change) { WorksheetRow.appendEscaped($0, to: &output) }
        tag("t>", closing: true)
        tag("is>", closing: true)
        tag("c>", closing: true)
    }

    /// The letters of a column: `A` for 0, `Z`, `AA` for 26.
    static func letters(_ column: Int) -> String {
        var number = column + 1
        var letters: [UInt8] = []
        while number > 0 {
            let remainder = (number - 1) % 26
            letters.insert(UInt8(ascii: "A") + UInt8(remainder), at: 0)
            number = (number - 1) / 26
        }
        return String(decoding: letters, as: UTF8.self)
    }
}
