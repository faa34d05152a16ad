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
/// Planning the edited sheet again with the same reconciliation changes nothing: the bytes stay the same.
///
/// The sheet is split once (`RawSheet`), each mapped cell is compared in canonical form as bytes, and the changes
/// are kept compactly (`SheetChanges`); the edited bytes are built only when asked for.
public struct WriteBackPlan: Sendable {
    /// Every changed cell in sheet order, then the cells of appended rows.
    public let changes: SheetChanges
    private let delimiter: Delimiter
    /// How appended rows are written: their number of cells, their line break, and whether the sheet ends with a
    /// line break (appended rows then follow it) or not (each appended row then starts with one).
    private let appendedWidth: Int
    private let lineBreak: [UInt8]
    private let endsWithLineBreak: Bool

    /// The edited sheet's bytes; the pulled bytes themselves when nothing changes.
    ///
    /// They are built on each access, in time proportional to the sheet's size: read it once.
    public var sheet: [UInt8] {
        let source = changes.source
        guard !changes.isEmpty else { return source }
        var output: [UInt8] = []
        output.reserveCapacity(source.count + changes.afterTexts.count * 2)
        let entries = changes.entries
        var index = 0
        source.withUnsafeBufferPointer { source in
            changes.afterTexts.withUnsafeBufferPointer { afterTexts in
                func appendAfter(_ index: Int, to output: inout [UInt8]) {
                    let after = UnsafeBufferPointer(rebasing: afterTexts[changes.afterRange(index)])
                    RawSheet.appendEncoded(after, delimiter: delimiter, to: &output)
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
        }
        return output
    }

    /// Whether the push would change the sheet at all.
    public var changesSheet: Bool { !changes.isEmpty }

    /// Plans the edit of the central sheet `bytes`, named `fileName` (whose `.tsv` or `.tab` extension selects the
    /// tab delimiter, as when it was read), read with `reader` (the mapping, identifier digits and buildings table the
    /// reconciliation used), following `options`.
    ///
    /// Throws `CSVError` when the bytes cannot be read as a sheet (an unclosed quote, an encoding other than UTF-8).
    public init(
        sheet bytes: [UInt8], fileName: String, reader: SourceReader, reconciliation: Reconciliation,
        options: WriteBackOptions
    ) throws(CSVError) {
        var csv = CSVReader(bytes: bytes, name: fileName)
        // The reader refuses what cannot be read and decides the delimiter; its first record is enough for both,
        // unless a quote stays open to the end, which only a whole reading reports as the reader does.
        try Self.read(&csv, wholly: false)
        let raw = RawSheet(bytes: bytes, start: csv.hadByteOrderMark ? 3 : 0, delimiter: csv.delimiter)
        if raw.endsInsideQuotes {
            try Self.read(&csv, wholly: true)
            preconditionFailure("cells were not split as the reader splits them")
        }
        var planner = Planner(
            raw: raw, delimiter: csv.delimiter, reader: reader, reconciliation: reconciliation, options: options)
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

/// The working state of one plan.
private struct Planner {
    /// A mapped column of the sheet.
    struct Column {
        var index: Int
        var target: ColumnTarget
        /// Whether the options allow writing it.
        var isWritable: Bool
        /// Whether it holds an identifier, which is only ever normalized.
        var isIdentity: Bool
    }

    /// A row tag number meaning "no valid tag".
    static let noTag = UInt64.max

    let raw: RawSheet
    let delimiter: Delimiter
    let reader: SourceReader
    let reconciliation: Reconciliation
    let options: WriteBackOptions
    /// The index of the header record, `nil` when the sheet has no non-blank row.
    var headerRecord: Int?
    var layout = HeaderLayout(header: [], mapping: .builtIn)
    var columns: [Column] = []
    /// The column of the VT tag, when the sheet maps one.
    var tagColumn: Int?
    /// The record of each data row; row `n` (1-based) is `rowRecords[n - 1]`.
    var rowRecords: [UInt32] = []
    /// The VT tag number of each data row, `noTag` when it has no valid tag.
    var rowTags: [UInt64] = []
    var changes: SheetChanges
    /// The number of cells of an appended row.
    var appendedWidth = 0
    /// Where cells of quoted text are unescaped: the row's cell, and other rows' cells compared with it.
    let unescaped = RawSheet.TextBuffer()
    let otherUnescaped = RawSheet.TextBuffer()

    init(
        raw: RawSheet, delimiter: Delimiter, reader: SourceReader, reconciliation: Reconciliation,
        options: WriteBackOptions
    ) {
        self.raw = raw
        self.delimiter = delimiter
        self.reader = reader
        self.reconciliation = reconciliation
        self.options = options
        changes = SheetChanges(source: raw.bytes, labels: [])
        let bytes = raw.bytes
        bytes.withUnsafeBufferPointer { findRows($0) }
    }

    /// Finds the header and the data rows with their tags.
    private mutating func findRows(_ text: UnsafeBufferPointer<UInt8>) {
        rowRecords.reserveCapacity(raw.recordCount)
        rowTags.reserveCapacity(raw.recordCount)
        for record in 0..<raw.recordCount {
            if isBlank(record, text) { continue }
            guard headerRecord != nil else {
                readHeader(record, text)
                continue
            }
            var tag = Self.noTag
            if let tagColumn,
                case .value(let value) = VTTag.normalize(cellText(record, tagColumn, text), digits: reader.tagDigits)
            {
                tag = value.number
            }
            rowRecords.append(UInt32(record))
            rowTags.append(tag)
        }
    }

    private mutating func readHeader(_ record: Int, _ text: UnsafeBufferPointer<UInt8>) {
        headerRecord = record
        let header = (0..<raw.cellCount(record)).map { cell in
            String(decoding: cellText(record, cell, text), as: UTF8.self)
        }
        layout = HeaderLayout(header: header, mapping: reader.mapping)
        columns = layout.plan.map { column, target in
            Column(
                index: column, target: target, isWritable: options.allows(target),
                isIdentity: target.fields.contains(where: \.isIdentifier))
        }
        tagColumn = layout.plan.first { $0.target == .field(.vtTag) }?.column
        appendedWidth = max(raw.cellCount(record), (layout.plan.map(\.column).max() ?? 0) + 1)
        let labels = (0..<appendedWidth).map { column in
            HeaderLayout.label(column < header.count ? header[column] : "", index: column)
        }
        changes = SheetChanges(source: raw.bytes, labels: labels)
    }

    /// The text of a cell as the reader delivers it (empty past the end of a short row), unescaped in `buffer`
    /// when quoted; valid until the buffer's next use.
    private func cellText(
        _ record: Int, _ cell: Int, _ text: UnsafeBufferPointer<UInt8>, in buffer: RawSheet.TextBuffer? = nil
    ) -> UnsafeBufferPointer<UInt8> {
        guard cell < raw.cellCount(record) else { return UnsafeBufferPointer(rebasing: text[0..<0]) }
        return (buffer ?? unescaped).text(raw.cell(record, cell), of: text)
    }

    /// Whether every cell of a record is blank, as the reader's blank rows are.
    private func isBlank(_ record: Int, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for cell in 0..<raw.cellCount(record) where !ByteTrim.trimmed(cellText(record, cell, text)).isEmpty {
            return false
        }
        return true
    }

    /// Decides every changed cell of the existing rows.
    mutating func plan() {
        guard !rowRecords.isEmpty, columns.contains(where: \.isWritable) else { return }
        let bytes = raw.bytes
        bytes.withUnsafeBufferPointer { planRows($0) }
    }

    private mutating func planRows(_ text: UnsafeBufferPointer<UInt8>) {
        let assets = mergedAssets()
        // Rows of one tag, linked in a ring, when a value another central row holds must be found.
        let sameTag = options.overwrite ? rowRings() : []
        var current: [UInt8] = []
        var merged: [UInt8] = []
        var after: [UInt8] = []
        let tagDigits = reader.tagDigits
        for row in rowRecords.indices {
            let record = Int(rowRecords[row])
            let tag = rowTags[row] == Self.noTag ? nil : VTTag(number: rowTags[row], digits: tagDigits)
            let asset = tag.flatMap { assets.value($0.number) }.flatMap { $0 < 0 ? nil : Int($0) }
            let cellCount = raw.cellCount(record)
            for column in columns where column.isWritable {
                let isPastEnd = column.index >= cellCount
                if !isPastEnd && raw.isDamaged(record, column.index) { continue }
                let before = cellText(record, column.index, text)
                current.removeAll(keepingCapacity: true)
                after.removeAll(keepingCapacity: true)
                let reason: ChangeReason
                switch CanonicalCell.read(before, target: column.target, reader: reader, into: &current) {
                case .invalid:
                    continue
                case .empty:
                    guard options.fill, let asset, !column.isIdentity else { continue }
                    merged.removeAll(keepingCapacity: true)
                    guard CanonicalCell.append(reconciliation.assets[asset].values, for: column.target, to: &merged)
                    else { continue }
                    Self.appendNeutralized(merged, to: &after)
                    reason = .filled
                case .value:
                    // A formula (the sheet's own, such as `=SUM(…)`) is the company's: neither rewritten nor replaced.
                    if current.withUnsafeBufferPointer(CSVWriter.needsNeutralizing) { continue }
                    merged.removeAll(keepingCapacity: true)
                    if options.overwrite, let asset, !column.isIdentity,
                        CanonicalCell.append(reconciliation.assets[asset].values, for: column.target, to: &merged),
                        !Self.isSameText(merged, current),
                        !(column.target == .field(.lastSeen) && merged.lexicographicallyPrecedes(current)),
                        !anotherRow(of: row, in: sameTag, holds: merged, in: column, text)
                    {
                        Self.appendNeutralized(merged, to: &after)
                        reason = .overwritten
                    } else {
                        guard options.normalize else { continue }
                        after.append(contentsOf: current)
                        reason = .normalized
                    }
                }
                if after.withUnsafeBufferPointer({ Self.isSameText($0, before) }) { continue }
                after.withUnsafeBufferPointer { after in
                    if isPastEnd {
                        changes.append(
                            row: row + 1, tag: tag, column: column.index, pastEndOf: raw.end(record),
                            cellCount: cellCount, after: after, reason: reason)
                    } else {
                        changes.append(
                            row: row + 1, tag: tag, column: column.index, cell: raw.cell(record, column.index),
                            after: after, reason: reason)
                    }
                }
            }
        }
    }

    /// The merged asset of each tag, by its index in the reconciliation; -1 for a tag found on two devices
    /// (`DUPLICATE_TAG`), whose rows are only normalized.
    private func mergedAssets() -> TagTable {
        var table = TagTable(capacity: reconciliation.assets.count)
        for index in reconciliation.assets.indices {
            if let tag = reconciliation.assets[index].values.vtTag, tag.digits == reader.tagDigits {
                table.set(tag.number, Int32(index))
            }
        }
        for index in reconciliation.discrepancies.indices
        where reconciliation.discrepancies[index].code == .duplicateTag {
            if let tag = reconciliation.discrepancies[index].vtTag, table.value(tag.number) != nil {
                table.set(tag.number, -1)
            }
        }
        return table
    }

    /// For each row, the next row with the same tag, in a ring (a row alone, or without a tag, is its own next).
    private func rowRings() -> [Int32] {
        var next = (0..<Int32(rowRecords.count)).map { $0 }
        var last = TagTable(capacity: rowRecords.count)
        for row in rowRecords.indices where rowTags[row] != Self.noTag {
            if let previous = last.value(rowTags[row]) {
                next[row] = next[Int(previous)]
                next[Int(previous)] = Int32(row)
            }
            last.set(rowTags[row], Int32(row))
        }
        return next
    }

    /// Whether another central row of the same tag holds `value` in `column`: the merged value may then be the
    /// central sheet's own, and the cell is left for the clerk.
    private func anotherRow(
        of row: Int, in rings: [Int32], holds value: [UInt8], in column: Column, _ text: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        var other = Int(rings[row])
        var reading: [UInt8] = []
        while other != row {
            reading.removeAll(keepingCapacity: true)
            let cell = cellText(Int(rowRecords[other]), column.index, text, in: otherUnescaped)
            if CanonicalCell.read(cell, target: column.target, reader: reader, into: &reading) == .value,
                Self.isSameText(reading, value)
            {
                return true
            }
            other = Int(rings[other])
        }
        return false
    }

    /// Appends a row for each unrecorded asset, when the options allow it and the sheet has a VT tag column.
    ///
    /// A scanned tag paired with a central tag as a `POSSIBLE_TYPO` is not a device of its own and is never
    /// appended; devices without a tag (`NO_TAG`) are not assets and never appear here.
    mutating func appendUnrecorded() {
        guard options.addUnrecorded, headerRecord != nil, layout.maps(.vtTag) else { return }
        var typoScans: Set<VTTag> = []
        for discrepancy in reconciliation.discrepancies where discrepancy.code == .possibleTypo {
            if let tag = VTTag.normalize(discrepancy.value, digits: reader.tagDigits).value { typoScans.insert(tag) }
        }
        var present = TagTable(capacity: rowTags.count)
        for tag in rowTags where tag != Self.noTag { present.set(tag, 0) }
        var targets: [ColumnTarget?] = Array(repeating: nil, count: appendedWidth)
        for (column, target) in layout.plan { targets[column] = target }
        var number = rowRecords.count
        var text: [UInt8] = []
        var written: [UInt8] = []
        for index in reconciliation.assets.indices where reconciliation.assets[index].status == .unrecorded {
            let values = reconciliation.assets[index].values
            guard let tag = values.vtTag, !typoScans.contains(tag),
                tag.digits != reader.tagDigits || present.value(tag.number) == nil
            else { continue }
            number += 1
            for column in 0..<appendedWidth {
                text.removeAll(keepingCapacity: true)
                guard let target = targets[column], target == .field(.vtTag) || options.allows(target),
                    CanonicalCell.append(values, for: target, to: &text)
                else { continue }
                written.removeAll(keepingCapacity: true)
                Self.appendNeutralized(text, to: &written)
                written.withUnsafeBufferPointer {
                    changes.appendAdded(row: number, tag: tag, column: column, after: $0)
                }
            }
        }
    }

    /// Appends `text` with a leading `'` when a spreadsheet would run it as a formula, as `CSVWriter.neutralized`.
    private static func appendNeutralized(_ text: [UInt8], to output: inout [UInt8]) {
        if text.withUnsafeBufferPointer(CSVWriter.needsNeutralizing) { output.append(ASCII.apostrophe) }
        output.append(contentsOf: text)
    }

    /// Whether two texts are equal as `String`s are: byte for byte, or, for text beyond ASCII, canonically
    /// equivalent (a precomposed `é` equals `e` and a combining accent).
    private static func isSameText(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Bool {
        if first.count == second.count {
            var index = 0
            while index < first.count && first[index] == second[index] { index += 1 }
            if index == first.count { return true }
        }
        guard first.contains(where: { $0 >= 0x80 }) || second.contains(where: { $0 >= 0x80 }) else { return false }
        return String(decoding: first, as: UTF8.self) == String(decoding: second, as: UTF8.self)
    }

    private static func isSameText(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        first.withUnsafeBufferPointer { first in second.withUnsafeBufferPointer { isSameText(first, $0) } }
    }
}
