/// The edit a push makes to the company's central sheet: the sheet's new bytes and every cell that changes.
///
/// The sheet stays the company's. Only cells of mapped columns change, and only for the reasons the account allows
/// (`WriteBackOptions`); every other byte is copied as it was pulled: the header line, unmapped cells (formulas such
/// as `=HYPERLINK(…)` included), the quoting of untouched cells, the delimiter, the byte-order mark, the line ends,
/// and a missing final line break. A changed cell is quoted only when it needs quoting. Rows are never removed and
/// columns never added; unrecorded assets are appended at the end only when the options say so.
///
/// Which value a row's cell takes comes from the reconciliation of the same night: the merged value of the cleaned
/// asset with the row's VT tag. A non-empty cell is overwritten only when its value lost the merge, which means a
/// source ranked before the central sheet supplied the merged value; when another central row of the same tag holds
/// the merged value, the central sheet may have supplied it, and the cell is left for the clerk. Identity fields (VT
/// tag, CNS number, serial number, MAC address) are only ever normalized, and rows of a tag found on two devices
/// (`DUPLICATE_TAG`) are only normalized. A date is never replaced by an older one. A cell that cannot be normalized,
/// or that holds damaged text (a stray quote, bytes that are not UTF-8), is left exactly as it is, and so is a cell
/// holding a formula (`=SUM(…)`), which is neither normalized nor overwritten. Values from other sources that would
/// start a formula are written with a leading `'`, as in every table stocktake writes.
///
/// A central sheet that is a worksheet of an `.xlsx` workbook is planned the same way, on the texts its rows are
/// read as (see `WorksheetEdit`): only that worksheet's part changes, and in it only the changed cells, which become
/// text cells, so no `'` is written before a value that would start a formula; cells holding a formula or rich text
/// are left alone; every other part of the workbook is kept byte for byte. A worksheet whose XML does not let a
/// change be placed exactly is not edited (`refusal`).
///
/// Planning the edited sheet again with the same reconciliation changes nothing: the bytes stay the same.
///
/// The sheet is split once (`RawSheet`), each mapped cell is compared in canonical form as bytes, and the changes
/// are kept compactly (`SheetChanges`); the edited bytes are built only when asked for.
public struct WriteBackPlan: Sendable {
    /// Every changed cell in sheet order, then the cells of appended rows.
    public let changes: SheetChanges
    /// The encoding of the pulled sheet. A sheet in another encoding than UTF-8 (Windows-1252, UTF-16) is planned
    /// on its text converted to UTF-8, so `changes.csv` lists what a push would change; its `editedSheet()` is then
    /// UTF-8, not the sheet's own bytes, and must not be pushed (`isPushable`).
    public let sheetEncoding: TextEncoding
    private let delimiter: Delimiter
    /// How appended rows are written: their number of cells, their line break, and whether the sheet ends with a
    /// line break (appended rows then follow it) or not (each appended row then starts with one).
    private let appendedWidth: Int
    private let lineBreak: [UInt8]
    private let endsWithLineBreak: Bool
    /// The workbook whose worksheet is the sheet, when the central sheet is an `.xlsx`.
    private let workbook: WorksheetEdit?
    /// Why the edit of a workbook's worksheet cannot be made exactly: the push is then not made, and
    /// `editedSheet()` gives the pulled bytes. Always `nil` for a CSV sheet.
    public let refusal: WorksheetEditRefusal?

    /// Whether the central sheet is a worksheet of a workbook.
    public var isWorkbook: Bool { workbook != nil }

    /// The edited sheet's bytes; the pulled bytes themselves when nothing changes.
    ///
    /// They are built on each call, in time proportional to the sheet's size.
    public func editedSheet() -> [UInt8] {
        if let workbook {
            guard !changes.isEmpty, refusal == nil else { return workbook.archive.bytes }
            return workbook.editedWorkbook(changes)
        }
        let source = changes.source
        guard !changes.isEmpty else { return source }
        var output: [UInt8] = []
        output.reserveCapacity(source.count + changes.parts.reduce(0) { $0 + $1.afterTexts.count } * 2)
        let entries = changes.entries
        var index = 0
        source.withUnsafeBufferPointer { source in
            func appendAfter(_ index: Int, to output: inout [UInt8]) {
                changes.withAfterText(index) { RawSheet.appendEncoded($0, delimiter: delimiter, to: &output) }
            }
            var cursor = 0
            while index < entries.count && entries[index].reason != .added {
                let entry = entries[index]
                guard entry.isPastEnd else {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: source[cursor..<Int(entry.start)]))
                    appendAfter(index, to: &output)
                    cursor = Int(entry.end)
                    index += 1
                    continue
                }
                // A short row (a sheet export drops trailing empty cells) grows to its last changed cell.
                output.append(contentsOf: UnsafeBufferPointer(rebasing: source[cursor..<Int(entry.start)]))
                cursor = Int(entry.start)
                var column = Int(entry.end) - 1
                while index < entries.count && entries[index].isPastEnd && entries[index].start == entry.start {
                    let next = Int(entries[index].column)
                    output.append(contentsOf: repeatElement(delimiter.rawValue, count: next - column))
                    appendAfter(index, to: &output)
                    column = next
                    index += 1
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: source[cursor...]))
            while index < entries.count {
                let row = entries[index].row
                var line: [UInt8] = []
                var column = 0
                while index < entries.count && entries[index].row == row {
                    let next = Int(entries[index].column)
                    line.append(contentsOf: repeatElement(delimiter.rawValue, count: next - column))
                    appendAfter(index, to: &line)
                    column = next
                    index += 1
                }
                line.append(contentsOf: repeatElement(delimiter.rawValue, count: appendedWidth - 1 - column))
                if endsWithLineBreak {
                    output.append(contentsOf: line)
                    output.append(contentsOf: lineBreak)
                } else {
                    output.append(contentsOf: lineBreak)
                    output.append(contentsOf: line)
                }
            }
        }
        return output
    }

    /// Whether the push would change the sheet at all.
    public var changesSheet: Bool { !changes.isEmpty }

    /// Whether the edited sheet may replace the pulled one: only a UTF-8 sheet keeps every byte it does not change.
    public var isPushable: Bool { sheetEncoding == .utf8 }

    /// Plans the edit of the central sheet `bytes`, named `fileName` (whose `.tsv` or `.tab` extension selects the
    /// tab delimiter, as when it was read), read with `reader` (the mapping, identifier digits and buildings table the
    /// reconciliation used), following `options`.
    ///
    /// The sheet is read in `encoding` (the account's setting for it) unless it starts with a byte-order mark, and
    /// in the encoding found in its text when `nil`, as when it was reconciled.
    ///
    /// Throws `CSVError` when the bytes cannot be read as a sheet (an unclosed quote, UTF-32).
    public init(
        sheet pulled: [UInt8], fileName: String, reader: SourceReader, reconciliation: Reconciliation,
        options: WriteBackOptions, encoding: TextEncoding? = nil
    ) throws(CSVError) {
        var csv = CSVReader(bytes: pulled, name: fileName, encoding: encoding)
        csv.limits = reader.limits
        // The reader refuses what cannot be read and decides the delimiter; its first record is enough for both,
        // unless a quote stays open to the end, which only a whole reading reports as the reader does.
        try Self.read(&csv, wholly: false)
        sheetEncoding = csv.encoding
        var bytes = pulled
        if csv.encoding != .utf8 {
            // Cells are found in UTF-8 bytes: the text converted, without its UTF-16 byte-order mark.
            let text = pulled[(EncodingSniffer.utf16Encoding(of: pulled[...]) == nil ? 0 : 2)...]
            bytes = TextTranscoder.utf8(from: csv.encoding, text)
            csv = CSVReader(bytes: bytes, name: fileName, encoding: .utf8)
            csv.limits = reader.limits
            try Self.read(&csv, wholly: false)
        }
        let raw = RawSheet(bytes: bytes, start: csv.hadByteOrderMark ? 3 : 0, delimiter: csv.delimiter)
        if raw.endsInsideQuotes {
            try Self.read(&csv, wholly: true)
            preconditionFailure("cells were not split as the reader splits them")
        }
        var planner = WriteBackPlanner(raw: raw, reader: reader, reconciliation: reconciliation, options: options)
        planner.plan()
        planner.appendUnrecorded()
        changes = planner.changes
        delimiter = csv.delimiter
        appendedWidth = planner.appendedWidth
        lineBreak =
            switch raw.lineEnding {
            case "LF": [ASCII.lineFeed]
            case "CR": [ASCII.carriageReturn]
            default: [ASCII.carriageReturn, ASCII.lineFeed]
            }
        endsWithLineBreak = bytes.last == ASCII.lineFeed || bytes.last == ASCII.carriageReturn
        workbook = nil
        refusal = nil
    }

    /// Plans the edit of the worksheet `sheet` (the first visible one when `nil`) of the `.xlsx` workbook `bytes`,
    /// named `fileName`, read with `reader`, following `options`.
    ///
    /// Throws the error reading the workbook as a source throws (a damaged or encrypted workbook, a missing sheet).
    public init(
        workbook bytes: [UInt8], fileName: String, sheet: String?, reader: SourceReader,
        reconciliation: Reconciliation, options: WriteBackOptions
    ) throws(StocktakeError) {
        let edit = try WorksheetEdit(bytes: bytes, fileName: fileName, sheet: sheet, limits: reader.limits)
        var raw = RawSheet(bytes: edit.text, start: 0, delimiter: .comma)
        raw.leaveAlone(edit.protectedCells)
        var planner = WriteBackPlanner(raw: raw, reader: reader, reconciliation: reconciliation, options: options)
        planner.guardsFormulas = false
        planner.plan()
        planner.appendUnrecorded()
        changes = planner.changes
        sheetEncoding = .utf8
        delimiter = .comma
        appendedWidth = planner.appendedWidth
        lineBreak = [ASCII.lineFeed]
        endsWithLineBreak = true
        workbook = edit
        refusal = edit.refusal(for: planner.changes)
    }

    /// Stops a reading after its first record.
    private struct FirstRecordRead: Error {}

    /// Reads the text with `csv`, up to its first record or `wholly`, throwing what the reader throws.
    private static func read(_ csv: inout CSVReader, wholly: Bool) throws(CSVError) {
        do {
            try csv.forEachRecord { _ in if !wholly { throw FirstRecordRead() } }
        } catch is FirstRecordRead {
            return
        } catch let error as CSVError {
            throw error
        } catch {
            preconditionFailure("unexpected error reading bytes in memory: \(error)")
        }
    }
}
