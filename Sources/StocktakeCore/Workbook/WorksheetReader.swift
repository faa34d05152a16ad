/// Reads the rows of one worksheet part (`xl/worksheets/sheetN.xml`) as `CSVRecord`s, so that a workbook row is
/// read exactly like a CSV row.
///
/// Column A is field 0, a missing cell is an empty field, and a row is as wide as the sheet's used range (its
/// `dimension`, as Excel pads the rows of a CSV it saves) or its widest row so far. Rows with no non-empty cell
/// are skipped, like blank CSV lines. A record's `line` is the row's number in the sheet.
///
/// Cell texts follow the rules of a CSV saved by Excel: numbers as their shortest round-trip text (see
/// `ExcelNumber`), numbers in a date style as ISO dates (see `ExcelDate`), numbers in a scientific style as Excel
/// shows them (`7.72E+04`, see `ScientificFormat`), booleans as `TRUE`/`FALSE`, errors as
/// their text (`#N/A`), shared and inline strings as their text. A formula's cached value is its cell's value.
struct WorksheetReader {
    /// The workbook's file name and the part's name, for messages.
    let file: String
    let part: String
    let sharedStrings: SharedStrings
    let styles: CellStyles
    let dateSystem: ExcelDate.System
    /// The most bytes a cell's text may hold and cells a row may hold (see `ReadLimits`).
    var limits = ReadLimits()

    /// The widest `dimension` believed; beyond it (a producer's `A1:XFD1048576`) rows are as wide as their cells.
    static let maximumPaddedWidth = 4096
    /// Excel's last column, XFD.
    static let maximumColumns = 16_384

    /// Where a field's bytes are.
    private enum Source: UInt8 {
        case part
        case sharedStrings
        case scratch
    }

    /// A field's bytes, before the row ends and its buffers stop moving.
    private struct Span {
        var source: Source
        var start: Int
        var count: Int
        static let empty = Span(source: .part, start: 0, count: 0)
    }

    /// The cell being read.
    private struct Cell {
        var column = 0
        var type: UInt8 = UInt8(ascii: "n")
        var style = 0
        var value: Span?
        var inline: Int?  // where the inline string's text starts in the scratch buffer
    }

    /// Calls `body` with each non-blank row of the worksheet `bytes`, in order.
    ///
    /// Throws `WorkbookError` for damaged XML or a cell that refers to a shared string that does not exist (after
    /// delivering the rows before it), and rethrows whatever `body` throws, which stops reading.
    func forEachRecord(in bytes: [UInt8], _ body: (borrowing CSVRecord) throws -> Void) throws {
        try bytes.withUnsafeBufferPointer { part in
            try sharedStrings.bytes.withUnsafeBufferPointer { strings in
                var state = try RowState(reader: self, part: part, strings: strings)
                defer { state.fields.deallocate() }
                try state.read(body)
            }
        }
    }

    /// The column (0-based) of a cell reference such as `AB12`, or nil when it starts with no letter.
    static func column(ofReference reference: UnsafeBufferPointer<UInt8>) -> Int? {
        var column = 0
        var index = 0
        while index < reference.count {
            let letter = reference[index] | 0x20
            guard letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z") else { break }
            column = column * 26 + Int(letter - UInt8(ascii: "a")) + 1
            guard column <= maximumColumns else { return nil }
            index += 1
        }
        return index == 0 ? nil : column - 1
    }

    /// The decimal number in `text`, or nil when it is not one (or is too long to be a row number or an index).
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard text.count > 0 && text.count <= 10 else { return nil }
        var value = 0
        for byte in text {
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// The reading of one part: the scanner, the row being built and its reused buffers.
    private struct RowState {
        let reader: WorksheetReader
        let part: UnsafeBufferPointer<UInt8>
        let strings: UnsafeBufferPointer<UInt8>
        var scanner: XMLScanner
        var spans: [Span] = []
        var scratch: [UInt8] = []
        var fields: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>
        var width = 0
        var rowNumber = 0
        /// The column of the next cell without an `r` reference.
        var nextColumn = 0
        var cell = Cell()

        init(reader: WorksheetReader, part: UnsafeBufferPointer<UInt8>, strings: UnsafeBufferPointer<UInt8>) throws {
            self.reader = reader
            self.part = part
            self.strings = strings
            do { scanner = try XMLScanner(bytes: part) } catch { throw reader.damaged(error) }
            fields = .allocate(capacity: 64)
            scratch.reserveCapacity(4096)
            spans.reserveCapacity(64)
        }

        mutating func read(_ body: (borrowing CSVRecord) throws -> Void) throws {
            do {
                var inSheetData = false
                while let token = try scanner.next() {
                    guard case .start(let tag) = token else {
                        if case .end(let name) = token, scanner.isName(name, "sheetData") { inSheetData = false }
                        continue
                    }
                    if inSheetData && scanner.isName(tag.name, "row") {
                        try readRow(tag, body)
                    } else if scanner.isName(tag.name, "sheetData") {
                        inSheetData = !tag.isEmpty
                    } else if scanner.isName(tag.name, "dimension") {
                        readDimension(tag)
                    }
                }
            } catch let error as XMLError {
                throw reader.damaged(error)
            }
        }

        /// Pads rows to the used range `A1:E200` (E: 5 columns) when it is believable.
        private mutating func readDimension(_ tag: XMLScanner.Tag) {
            guard let range = scanner.attribute("ref", of: tag) else { return }
            var start = range.lowerBound
            for index in range where part[index] == UInt8(ascii: ":") { start = index + 1 }
            guard
                let last = WorksheetReader.column(
                    ofReference: UnsafeBufferPointer(rebasing: part[start..<range.upperBound])),
                last < WorksheetReader.maximumPaddedWidth
            else { return }
            width = last + 1
        }

        private mutating func readRow(_ tag: XMLScanner.Tag, _ body: (borrowing CSVRecord) throws -> Void) throws {
            if let number = scanner.attribute("r", of: tag).flatMap({ WorksheetReader.integer(slice($0)) }) {
                rowNumber = number
            } else {
                rowNumber += 1
            }
            spans.removeAll(keepingCapacity: true)
            scratch.removeAll(keepingCapacity: true)
            nextColumn = 0
            guard !tag.isEmpty else { return }
            while let token = try scanner.next() {
                switch token {
                case .start(let tag):
                    if scanner.isName(tag.name, "c") {
                        try readCell(tag)
                    } else if !tag.isEmpty {
                        try scanner.skipElement()
                    }
                case .end:
                    try deliver(body)
                    return
                case .text, .characterData:
                    break
                }
            }
        }

        private mutating func readCell(_ tag: XMLScanner.Tag) throws {
            cell = Cell()
            if let reference = scanner.attribute("r", of: tag) {
                guard let column = WorksheetReader.column(ofReference: slice(reference)) else {
                    throw XMLError.malformedMarkup(offset: reference.lowerBound)
                }
                cell.column = column
            } else {
                cell.column = nextColumn
            }
            nextColumn = cell.column + 1
            if let type = scanner.attribute("t", of: tag), type.count > 0 {
                // s, str, inlineStr, b, e, n, d: the first letter tells them apart ("s" and "str" by length).
                cell.type =
                    type.count == 3 && part[type.lowerBound + 1] == UInt8(ascii: "t")
                    ? UInt8(ascii: "S") : part[type.lowerBound]
            }
            if let style = scanner.attribute("s", of: tag) {
                cell.style = WorksheetReader.integer(slice(style)) ?? 0
            }
            if !tag.isEmpty {
                while let token = try scanner.next() {
                    switch token {
                    case .start(let inner):
                        if scanner.isName(inner.name, "v") {
                            if !inner.isEmpty { try readValue() }
                            if cell.value == nil { cell.value = .empty }
                        } else if scanner.isName(inner.name, "is") {
                            cell.inline = scratch.count
                            if !inner.isEmpty { try readInlineString() }
                        } else if !inner.isEmpty {
                            try scanner.skipElement()  // f (the formula), extLst
                        }
                    case .end:
                        try place()
                        return
                    case .text, .characterData:
                        break
                    }
                }
            }
            try place()
        }

        /// Reads the contents of `v` up to its end tag into `cell.value`.
        private mutating func readValue() throws {
            var value: Span?
            var copied = false
            while let token = try scanner.next() {
                switch token {
                case .text(let range), .characterData(let range):
                    var isText = false
                    if case .text = token { isText = true }
                    if value == nil && !(isText && scanner.needsDecoding(range)) {
                        value = Span(source: .part, start: range.lowerBound, count: range.count)
                        continue
                    }
                    if !copied {
                        let start = scratch.count
                        if let previous = value {
                            scratch.append(contentsOf: slice(previous.start..<(previous.start + previous.count)))
                        }
                        value = Span(source: .scratch, start: start, count: 0)
                        copied = true
                    }
                    if isText {
                        try scanner.appendDecoded(range, to: &scratch)
                    } else {
                        scratch.append(contentsOf: slice(range))
                    }
                    value!.count = scratch.count - value!.start
                case .start(let tag):
                    if !tag.isEmpty { try scanner.skipElement() }
                case .end:
                    cell.value = value ?? .empty
                    return
                }
            }
        }

        /// Reads the contents of `is` (a `t`, or rich-text runs) up to its end tag onto the scratch buffer.
        private mutating func readInlineString() throws {
            let start = scratch.count
            let depth = scanner.depth
            var phoneticDepth = 0
            var inText = false
            while let token = try scanner.next() {
                switch token {
                case .start(let tag):
                    if scanner.isName(tag.name, "rPh") && !tag.isEmpty {
                        phoneticDepth += 1
                    } else if scanner.isName(tag.name, "t") {
                        inText = phoneticDepth == 0 && !tag.isEmpty
                    }
                case .end(let name):
                    if scanner.depth < depth {
                        ExcelEscape.decode(&scratch, from: start)
                        return
                    }
                    if scanner.isName(name, "rPh") {
                        phoneticDepth -= 1
                    } else if scanner.isName(name, "t") {
                        inText = false
                    }
                case .text(let range):
                    if inText { try scanner.appendDecoded(range, to: &scratch) }
                case .characterData(let range):
                    if inText { scratch.append(contentsOf: slice(range)) }
                }
            }
        }

        /// Puts the cell just read into its column of the row.
        private mutating func place() throws {
            guard let field = try text(ofCell: cell) else { return }
            if cell.column >= reader.limits.maxColumns {
                throw WorkbookError.tooManyColumns(
                    file: reader.file, part: reader.part, row: rowNumber, limit: reader.limits.maxColumns)
            }
            if field.count > reader.limits.maxFieldBytes {
                throw WorkbookError.cellTooLong(
                    file: reader.file, part: reader.part, row: rowNumber, column: cell.column,
                    limit: reader.limits.maxFieldBytes)
            }
            if cell.column >= spans.count {
                if cell.column > spans.count {
                    spans.append(contentsOf: repeatElement(Span.empty, count: cell.column - spans.count))
                }
                spans.append(field)
            } else {
                spans[cell.column] = field
            }
        }

        /// The text of `cell` by its type and style, or nil when it has no value.
        private mutating func text(ofCell cell: Cell) throws -> Span? {
            if let inline = cell.inline, cell.type == UInt8(ascii: "i") || cell.value == nil {
                return Span(source: .scratch, start: inline, count: scratch.count - inline)
            }
            guard let value = cell.value, value.count > 0 else { return nil }
            switch cell.type {
            case UInt8(ascii: "s"):
                guard let index = withBytes(of: value, WorksheetReader.integer),
                    let range = reader.sharedStrings.range(at: index)
                else {
                    throw WorkbookError.missingSharedString(
                        file: reader.file, part: reader.part, row: rowNumber, column: cell.column,
                        index: withBytes(of: value) { String(decoding: $0, as: UTF8.self) },
                        count: reader.sharedStrings.count)
                }
                return Span(source: .sharedStrings, start: range.lowerBound, count: range.count)
            case UInt8(ascii: "b"):
                let truth: Bool? = withBytes(of: value) { text in
                    guard text.count == 1 else { return nil }
                    return text[0] == UInt8(ascii: "1") ? true : text[0] == UInt8(ascii: "0") ? false : nil
                }
                guard let truth else { return value }
                let start = scratch.count
                scratch.append(contentsOf: truth ? "TRUE".utf8 : "FALSE".utf8)
                return Span(source: .scratch, start: start, count: scratch.count - start)
            case UInt8(ascii: "n"):
                let isDate = reader.styles.isDate(style: cell.style)
                let scientific = reader.styles.scientificFormat(style: cell.style)
                let isPlain = !isDate && scientific == nil
                let number: Double? = withBytes(of: value) { text in
                    isPlain && ExcelNumber.isCanonicalInteger(text) ? nil : ExcelNumber.value(text)
                }
                guard let number else { return value }
                let start = scratch.count
                let isShown =
                    isDate
                    ? ExcelDate.append(serial: number, system: reader.dateSystem, to: &scratch)
                    : scientific?.append(number, to: &scratch) ?? false
                if !isShown {
                    ExcelNumber.append(number, to: &scratch)
                }
                return Span(source: .scratch, start: start, count: scratch.count - start)
            default:
                return value  // str (a formula's text), e (an error such as #N/A), d (an ISO date), inlineStr's v
            }
        }

        /// Delivers the row when it has a non-empty cell.
        private mutating func deliver(_ body: (borrowing CSVRecord) throws -> Void) throws {
            guard spans.contains(where: { $0.count > 0 }) else { return }
            width = max(width, spans.count)
            if fields.count < width {
                fields.deallocate()
                fields = .allocate(capacity: max(width, fields.count * 2))
            }
            let end = scanner.offset
            let line = rowNumber
            let count = width
            try scratch.withUnsafeBufferPointer { scratchBytes in
                for index in 0..<count {
                    let span = index < spans.count ? spans[index] : .empty
                    let base: UnsafeBufferPointer<UInt8> =
                        switch span.source {
                        case .part: part
                        case .sharedStrings: strings
                        case .scratch: scratchBytes
                        }
                    fields[index] =
                        span.count == 0
                        ? UnsafeBufferPointer(start: nil, count: 0)
                        : UnsafeBufferPointer(rebasing: base[span.start..<(span.start + span.count)])
                }
                let record = CSVRecord(
                    line: line, lineCount: 1, fields: UnsafeBufferPointer(rebasing: fields[0..<count]), problems: [],
                    end: end)
                try body(record)
            }
        }

        private func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: part[range])
        }

        /// Calls `body` with the bytes of `span`; a span of the scratch buffer is copied, so `body` cannot see it
        /// move.
        private func withBytes<Result>(
            of span: Span, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
        ) rethrows -> Result {
            let range = span.start..<(span.start + span.count)
            switch span.source {
            case .part: return try body(slice(range))
            case .sharedStrings: return try body(UnsafeBufferPointer(rebasing: strings[range]))
            case .scratch: return try Array(scratch[range]).withUnsafeBufferPointer(body)
            }
        }
    }

    /// The error for damaged XML in this part.
    func damaged(_ error: XMLError) -> WorkbookError {
        if case .documentTypeDeclaration = error { return .entityDeclaration(file: file, part: part) }
        return .damagedPart(file: file, part: part, error)
    }
}
