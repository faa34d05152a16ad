/// Where the rows and cells of one worksheet part (`xl/worksheets/sheetN.xml`) lie among its bytes, found in one
/// pass, so that single cells can be rewritten and every other byte copied as it was.
///
/// Row numbers and columns are found exactly as `WorksheetReader` finds them: a row's `r`, else one more than the
/// row before; a cell's `r`, else the column after the cell before. Each cell is noted with what it holds that an
/// edit must not touch: a formula (`<f>`, shared and array formulas included), a rich-text inline string, or a
/// place inside the range of an array formula or a data table.
struct WorksheetLayout {
    /// One `<c>` element.
    struct Cell {
        /// The column, 0 for A.
        var column: Int
        /// The element's bytes, from `<` to the end of its end tag (or of its empty-element tag).
        var range: Range<Int>
        /// The value of its `s` attribute (the style), as written; empty when it has none.
        var style: Range<Int>
        /// Whether it has an `r` attribute.
        var hasReference: Bool
        /// Whether it holds a formula or rich text, which an edit leaves alone.
        var isProtected: Bool
    }

    /// One `<row>` element.
    struct Row {
        /// The row's number in the sheet (1 for the first).
        var number: Int
        /// Where its end tag starts: cells inserted at the end of the row go there.
        var contentEnd: Int
        var cells: [Cell]
        /// Whether every cell has `r` and the columns ascend: only then can a cell be inserted.
        var cellsAreOrdered: Bool
    }

    /// The rows that have contents, in the part's order; rows written as empty elements (`<row r="9"/>`) are not
    /// among them.
    let rows: [Row]
    /// The highest row number of the part, empty row elements included; 0 when it has no row. Appended rows follow
    /// it.
    let lastRowNumber: Int
    /// Whether the row numbers ascend strictly, as the format requires and the editor relies on.
    let rowsAreOrdered: Bool
    /// Where rows appended at the end go: the start of `</sheetData>`; `nil` when the part has no `sheetData`
    /// element with an end tag.
    let sheetDataEnd: Int?
    /// The value of `<dimension ref="…">`, when the part has one.
    let dimension: Range<Int>?
    /// The namespace prefix of the sheet's elements with its colon (`x:`), empty for none; new elements take it.
    let prefix: [UInt8]

    /// Reads the layout of the worksheet `bytes`; throws `XMLError` for XML that cannot be read.
    init(bytes: UnsafeBufferPointer<UInt8>) throws(XMLError) {
        var scanner = try XMLScanner(bytes: bytes)
        var rows: [Row] = []
        var sheetDataEnd: Int?
        var dimension: Range<Int>?
        var prefix: [UInt8] = []
        var rowsAreOrdered = true
        /// Array formulas and data tables: the rectangles of cells whose values they own.
        var ownedAreas: [(rows: ClosedRange<Int>, columns: ClosedRange<Int>)] = []
        var inSheetData = false
        var rowNumber = 0
        var lastRowNumber = 0
        while let token = try scanner.next() {
            switch token {
            case .end(let name):
                if inSheetData && scanner.isName(name, "sheetData") {
                    inSheetData = false
                    sheetDataEnd = Self.tagStart(before: name.lowerBound, in: bytes)
                }
            case .start(let tag):
                if inSheetData && scanner.isName(tag.name, "row") {
                    let previous = rowNumber
                    if let number = scanner.attribute("r", of: tag).flatMap({
                        WorksheetReader.integer(.init(rebasing: bytes[$0]))
                    }) {
                        rowNumber = number
                    } else {
                        rowNumber += 1
                    }
                    if rowNumber <= previous && lastRowNumber > 0 { rowsAreOrdered = false }
                    lastRowNumber = max(lastRowNumber, rowNumber)
                    guard !tag.isEmpty else { continue }
                    rows.append(try Self.readRow(rowNumber, &scanner, bytes, &ownedAreas))
                } else if scanner.isName(tag.name, "sheetData") {
                    prefix = Array(
                        bytes[(Self.tagStart(before: tag.name.lowerBound, in: bytes) + 1)..<tag.name.lowerBound])
                    inSheetData = !tag.isEmpty
                } else if scanner.isName(tag.name, "dimension") {
                    dimension = scanner.attribute("ref", of: tag)
                }
            case .text, .characterData:
                break
            }
        }
        for area in ownedAreas {
            for index in rows.indices where area.rows.contains(rows[index].number) {
                for cell in rows[index].cells.indices where area.columns.contains(rows[index].cells[cell].column) {
                    rows[index].cells[cell].isProtected = true
                }
            }
        }
        self.rows = rows
        self.lastRowNumber = lastRowNumber
        self.rowsAreOrdered = rowsAreOrdered
        self.sheetDataEnd = sheetDataEnd
        self.dimension = dimension
        self.prefix = prefix
    }

    /// The row numbered `number`, when the part has exactly one such row element with contents.
    func row(numbered number: Int) -> Row? {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].number < number { low = middle + 1 } else { high = middle }
        }
        return low < rows.count && rows[low].number == number ? rows[low] : nil
    }

    /// Reads the cells of the row whose start tag was just read, up to its end tag.
    private static func readRow(
        _ number: Int, _ scanner: inout XMLScanner, _ bytes: UnsafeBufferPointer<UInt8>,
        _ ownedAreas: inout [(rows: ClosedRange<Int>, columns: ClosedRange<Int>)]
    ) throws(XMLError) -> Row {
        var cells: [Cell] = []
        var cellsAreOrdered = true
        var nextColumn = 0
        while let token = try scanner.next() {
            switch token {
            case .start(let tag):
                guard scanner.isName(tag.name, "c") else {
                    if !tag.isEmpty { try scanner.skipElement() }
                    continue
                }
                let start = tagStart(before: tag.name.lowerBound, in: bytes)
                let reference = scanner.attribute("r", of: tag)
                var column = nextColumn
                if let reference {
                    guard let referenced = WorksheetReader.column(ofReference: .init(rebasing: bytes[reference])) else {
                        throw .malformedMarkup(offset: reference.lowerBound)
                    }
                    column = referenced
                } else {
                    cellsAreOrdered = false
                }
                if let last = cells.last, column <= last.column { cellsAreOrdered = false }
                nextColumn = column + 1
                let style = scanner.attribute("s", of: tag) ?? start..<start
                var isProtected = false
                if !tag.isEmpty {
                    isProtected = try readContents(of: &scanner, bytes, row: number, column: column, &ownedAreas)
                }
                cells.append(
                    Cell(
                        column: column, range: start..<scanner.offset, style: style, hasReference: reference != nil,
                        isProtected: isProtected))
            case .end(let name):
                return Row(
                    number: number, contentEnd: tagStart(before: name.lowerBound, in: bytes), cells: cells,
                    cellsAreOrdered: cellsAreOrdered)
            case .text, .characterData:
                break
            }
        }
        throw .unexpectedEnd
    }

    /// Reads a cell's contents up to its end tag; returns whether it holds a formula or rich text, noting the area
    /// an array formula or data table owns.
    private static func readContents(
        of scanner: inout XMLScanner, _ bytes: UnsafeBufferPointer<UInt8>, row: Int, column: Int,
        _ ownedAreas: inout [(rows: ClosedRange<Int>, columns: ClosedRange<Int>)]
    ) throws(XMLError) -> Bool {
        let depth = scanner.depth
        var isProtected = false
        var inInlineString = false
        while let token = try scanner.next() {
            switch token {
            case .start(let tag):
                if scanner.isName(tag.name, "f") {
                    isProtected = true
                    if let type = scanner.attribute("t", of: tag),
                        scanner.isName(type, "array") || scanner.isName(type, "dataTable"),
                        let reference = scanner.attribute("ref", of: tag),
                        let area = area(UnsafeBufferPointer(rebasing: bytes[reference]))
                    {
                        ownedAreas.append(area)
                    }
                } else if scanner.isName(tag.name, "is") {
                    inInlineString = !tag.isEmpty
                } else if inInlineString && scanner.isName(tag.name, "r") {
                    isProtected = true
                }
            case .end(let name):
                if scanner.depth < depth { return isProtected }
                if scanner.isName(name, "is") { inInlineString = false }
            case .text, .characterData:
                break
            }
        }
        throw .unexpectedEnd
    }

    /// The rows and columns of a reference such as `B2:C5` or `B2`; `nil` when it is not one.
    static func area(_ text: UnsafeBufferPointer<UInt8>) -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>)? {
        let parts = text.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        var corners: [(row: Int, column: Int)] = []
        for part in parts {
            let plain = part.filter { $0 != UInt8(ascii: "$") }
            let letters = plain.prefix { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }
            let digits = Array(plain.dropFirst(letters.count))
            let column = Array(letters).withUnsafeBufferPointer { WorksheetReader.column(ofReference: $0) }
            let row = digits.withUnsafeBufferPointer { WorksheetReader.integer($0) }
            guard let column, let row else { return nil }
            corners.append((row, column))
        }
        let last = corners[corners.count - 1]
        guard corners[0].row <= last.row, corners[0].column <= last.column else { return nil }
        return (corners[0].row...last.row, corners[0].column...last.column)
    }

    /// Where the tag whose name starts at `nameStart` begins: the `<` before it (and before any prefix or `/`).
    private static func tagStart(before nameStart: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = nameStart - 1
        while index > 0 && bytes[index] != UInt8(ascii: "<") { index -= 1 }
        return index
    }
}
