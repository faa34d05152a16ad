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
public struct WriteBackPlan: Sendable {
    /// The edited sheet's bytes; the pulled bytes themselves when nothing changes.
    public let sheet: [UInt8]
    /// Every changed cell in sheet order, then the cells of appended rows.
    public let changes: [SheetChange]

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
        // The fields of each record whose text is damaged; the reader also refuses what cannot be read at all.
        var damaged: [Set<Int>] = []
        do {
            try csv.forEachRecord { record in damaged.append(Set(record.problems.map(\.field))) }
        } catch let error as CSVError {
            throw error
        } catch {
            preconditionFailure("unexpected error reading bytes in memory: \(error)")
        }
        let raw = RawSheet(bytes: bytes, start: csv.hadByteOrderMark ? 3 : 0, delimiter: csv.delimiter)
        precondition(raw.records.count == damaged.count, "cells were not split as the reader splits them")
        var planner = Planner(
            raw: raw, damaged: damaged, delimiter: csv.delimiter, reader: reader, reconciliation: reconciliation,
            options: options)
        planner.plan()
        var sheet = planner.editedBytes()
        planner.appendUnrecorded(to: &sheet, lineEnding: csv.lineEnding)
        self.sheet = sheet
        self.changes = planner.changes
    }
}

/// The working state of one plan.
private struct Planner {
    /// One mapped cell of a data row, as read.
    struct Cell {
        var column: Int
        var target: ColumnTarget
        /// The cell's text as the reader delivers it; empty past the end of a short row.
        var text: [UInt8]
        var reading: Normalized<String>
        var isDamaged: Bool
    }

    /// One data row of the sheet.
    struct Row {
        var record: Int
        /// The 1-based data row number.
        var number: Int
        var tag: VTTag?
        var cells: [Cell]
    }

    let raw: RawSheet
    let delimiter: Delimiter
    let reader: SourceReader
    let reconciliation: Reconciliation
    let options: WriteBackOptions
    /// The index of the header record, `nil` when the sheet has no non-blank row.
    var headerRecord: Int?
    var layout = HeaderLayout(header: [], mapping: .builtIn)
    var rows: [Row] = []
    /// The new text of changed cells, by record and column.
    var edits: [Int: [Int: String]] = [:]
    var changes: [SheetChange] = []

    init(
        raw: RawSheet, damaged: [Set<Int>], delimiter: Delimiter, reader: SourceReader,
        reconciliation: Reconciliation, options: WriteBackOptions
    ) {
        self.raw = raw
        self.delimiter = delimiter
        self.reader = reader
        self.reconciliation = reconciliation
        self.options = options
        var mapped: [(column: Int, target: ColumnTarget)] = []
        for (index, record) in raw.records.enumerated() {
            let texts = record.cells.map(raw.text)
            if texts.allSatisfy(Self.isBlank) { continue }
            guard headerRecord != nil else {
                headerRecord = index
                layout = HeaderLayout(
                    header: texts.map { String(decoding: $0, as: UTF8.self) }, mapping: reader.mapping)
                mapped = layout.plan
                continue
            }
            var cells: [Cell] = []
            var tag: VTTag?
            for (column, target) in mapped {
                let text = column < texts.count ? texts[column] : []
                let reading = text.withUnsafeBufferPointer { CanonicalCell.reading($0, target: target, reader: reader) }
                if target == .field(.vtTag), case .value(let canonical) = reading {
                    tag = VTTag.normalize(canonical, digits: reader.tagDigits).value
                }
                cells.append(
                    Cell(
                        column: column, target: target, text: text, reading: reading,
                        isDamaged: damaged[index].contains(column)))
            }
            rows.append(Row(record: index, number: rows.count + 1, tag: tag, cells: cells))
        }
    }

    /// Decides every changed cell of the existing rows.
    mutating func plan() {
        var assets: [VTTag: AssetValues] = [:]
        for asset in reconciliation.assets {
            if let tag = asset.values.vtTag { assets[tag] = asset.values }
        }
        var sharedByDevices: Set<VTTag> = []
        for discrepancy in reconciliation.discrepancies where discrepancy.code == .duplicateTag {
            if let tag = discrepancy.vtTag { sharedByDevices.insert(tag) }
        }
        // The canonical texts each tag's central rows hold per column: a merged value among them may be central's.
        var centralTexts: [VTTag: [Int: Set<String>]] = [:]
        for row in rows {
            guard let tag = row.tag else { continue }
            for cell in row.cells {
                if case .value(let text) = cell.reading {
                    centralTexts[tag, default: [:]][cell.column, default: []].insert(text)
                }
            }
        }
        for row in rows {
            let merged = row.tag.flatMap { sharedByDevices.contains($0) ? nil : assets[$0] }
            for cell in row.cells where options.allows(cell.target) && !cell.isDamaged {
                let before = String(decoding: cell.text, as: UTF8.self)
                let isIdentity = cell.target.fields.contains(where: \.isIdentifier)
                let mergedText = isIdentity ? nil : merged.flatMap { CanonicalCell.text(of: $0, for: cell.target) }
                let heldByCentral = row.tag.flatMap { centralTexts[$0]?[cell.column] } ?? []
                guard let decision = decide(cell, merged: mergedText, heldByCentral: heldByCentral),
                    decision.after != before
                else { continue }
                edits[row.record, default: [:]][cell.column] = decision.after
                changes.append(
                    SheetChange(
                        row: row.number, vtTag: row.tag, column: label(cell.column), before: before,
                        after: decision.after, reason: decision.reason))
            }
        }
    }

    /// The new text of one cell and why, or `nil` when the options leave it as it is.
    private func decide(_ cell: Cell, merged: String?, heldByCentral: Set<String>) -> (
        after: String, reason: ChangeReason
    )? {
        switch cell.reading {
        case .invalid:
            return nil
        case .empty:
            guard options.fill, let merged else { return nil }
            return (CSVWriter.neutralized(merged), .filled)
        case .value(let current):
            // A formula (the sheet's own, such as `=SUM(…)`) is the company's: neither rewritten nor replaced.
            guard CSVWriter.neutralized(current) == current else { return nil }
            if options.overwrite, let merged, merged != current, !heldByCentral.contains(merged),
                !(cell.target == .field(.lastSeen) && merged < current)
            {
                return (CSVWriter.neutralized(merged), .overwritten)
            }
            guard options.normalize else { return nil }
            return (current, .normalized)
        }
    }

    /// The sheet's bytes with every changed cell rewritten and all other bytes copied.
    func editedBytes() -> [UInt8] {
        guard !edits.isEmpty else { return raw.bytes }
        let bytes = raw.bytes
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        var cursor = 0
        for recordIndex in edits.keys.sorted() {
            let record = raw.records[recordIndex]
            let changed = edits[recordIndex]!
            for column in changed.keys.sorted() where column < record.cells.count {
                let range = record.cells[column]
                output.append(contentsOf: bytes[cursor..<range.lowerBound])
                output.append(contentsOf: RawSheet.encoded(changed[column]!, delimiter: delimiter))
                cursor = range.upperBound
            }
            // A short row (a sheet export drops trailing empty cells) grows to the changed cell.
            guard let last = changed.keys.max(), last >= record.cells.count else { continue }
            output.append(contentsOf: bytes[cursor..<record.end])
            cursor = record.end
            for column in record.cells.count...last {
                output.append(delimiter.rawValue)
                if let text = changed[column] {
                    output.append(contentsOf: RawSheet.encoded(text, delimiter: delimiter))
                }
            }
        }
        output.append(contentsOf: bytes[cursor...])
        return output
    }

    /// Appends a row for each unrecorded asset, when the options allow it and the sheet has a VT tag column.
    ///
    /// A scanned tag paired with a central tag as a `POSSIBLE_TYPO` is not a device of its own and is never
    /// appended; devices without a tag (`NO_TAG`) are not assets and never appear here.
    mutating func appendUnrecorded(to sheet: inout [UInt8], lineEnding: String?) {
        guard options.addUnrecorded, let headerRecord, layout.maps(.vtTag) else { return }
        var typoScans: Set<VTTag> = []
        for discrepancy in reconciliation.discrepancies where discrepancy.code == .possibleTypo {
            if let tag = VTTag.normalize(discrepancy.value, digits: reader.tagDigits).value { typoScans.insert(tag) }
        }
        let present = Set(rows.compactMap(\.tag))
        let width = max(raw.records[headerRecord].cells.count, (layout.plan.map(\.column).max() ?? 0) + 1)
        let targets = Dictionary(uniqueKeysWithValues: layout.plan.map { ($0.column, $0.target) })
        let lineBreak: [UInt8] =
            switch lineEnding {
            case "LF": [ASCII.lineFeed]
            case "CR": [ASCII.carriageReturn]
            default: [ASCII.carriageReturn, ASCII.lineFeed]
            }
        let endsWithLineBreak = sheet.last == ASCII.lineFeed || sheet.last == ASCII.carriageReturn
        var number = rows.count
        for asset in reconciliation.assets where asset.status == .unrecorded {
            guard let tag = asset.values.vtTag, !typoScans.contains(tag), !present.contains(tag) else { continue }
            number += 1
            var line: [UInt8] = []
            for column in 0..<width {
                if column > 0 { line.append(delimiter.rawValue) }
                guard let target = targets[column], target == .field(.vtTag) || options.allows(target),
                    let text = CanonicalCell.text(of: asset.values, for: target)
                else { continue }
                let written = CSVWriter.neutralized(text)
                line.append(contentsOf: RawSheet.encoded(written, delimiter: delimiter))
                changes.append(
                    SheetChange(
                        row: number, vtTag: tag, column: label(column), before: "", after: written, reason: .added))
            }
            if endsWithLineBreak {
                sheet.append(contentsOf: line)
                sheet.append(contentsOf: lineBreak)
            } else {
                sheet.append(contentsOf: lineBreak)
                sheet.append(contentsOf: line)
            }
        }
    }

    /// The sheet's own header text of a column.
    private func label(_ column: Int) -> String {
        let header = layout.parsedHeader
        return HeaderLayout.label(column < header.count ? header[column] : "", index: column)
    }

    private static func isBlank(_ text: [UInt8]) -> Bool {
        text.withUnsafeBufferPointer { ByteTrim.trimmed($0).isEmpty }
    }
}
