import Dispatch

/// The working state of one `WriteBackPlan`: the sheet's header and data rows, then the changed cells.
///
/// Rows are planned on both cores, each stretch of rows into its own `SheetChanges`, whose parts are joined in sheet
/// order without being copied.
struct WriteBackPlanner {
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
    /// Whether values that would start a formula are written with a leading `'`: in a CSV file, yes; in a
    /// workbook, whose changed cells are text cells, no.
    var guardsFormulas = true
    /// A sheet of twice as many data rows or more is planned on all cores, in chunks of at least this many rows;
    /// a smaller one on one core. Waking a worker costs microseconds; planning a thousand rows, about a millisecond.
    static let rowsPerCore = 1_000

    init(raw: RawSheet, reader: SourceReader, reconciliation: Reconciliation, options: WriteBackOptions) {
        self.raw = raw
        self.reader = reader
        self.reconciliation = reconciliation
        self.options = options
        changes = SheetChanges(source: raw.bytes, labels: [])
        let bytes = raw.bytes
        bytes.withUnsafeBufferPointer { findRows($0) }
    }

    /// Finds the header and the data rows with their tags, the rows after the header on all cores.
    private mutating func findRows(_ text: UnsafeBufferPointer<UInt8>) {
        let buffer = RawSheet.TextBuffer()
        var record = 0
        while record < raw.recordCount && isBlank(record, text, buffer) { record += 1 }
        guard record < raw.recordCount else { return }
        readHeader(record, text, buffer)
        let first = record + 1
        let planner = self
        let parts =
            raw.recordCount - first < 2 * Self.rowsPerCore
            ? [dataRows(first..<raw.recordCount, text)]
            : Parallel.chunked(raw.recordCount - first, minimum: Self.rowsPerCore) { records in
                planner.dataRows((first + records.lowerBound)..<(first + records.upperBound), text)
            }
        let count = parts.reduce(0) { $0 + $1.records.count }
        rowRecords.reserveCapacity(count)
        rowTags.reserveCapacity(count)
        for part in parts {
            rowRecords.append(contentsOf: part.records)
            rowTags.append(contentsOf: part.tags)
        }
    }

    /// The data rows among `records` (those not blank) and their tag numbers (`noTag` when they have no valid tag).
    private func dataRows(
        _ records: Range<Int>, _ text: UnsafeBufferPointer<UInt8>
    ) -> (records: [UInt32], tags: [UInt64]) {
        let buffer = RawSheet.TextBuffer()
        var rows: [UInt32] = []
        var tags: [UInt64] = []
        rows.reserveCapacity(records.count)
        tags.reserveCapacity(records.count)
        for record in records where !isBlank(record, text, buffer) {
            var tag = Self.noTag
            if let tagColumn,
                case .value(let value) = VTTag.normalize(
                    cellText(record, tagColumn, text, in: buffer), digits: reader.tagDigits)
            {
                tag = value.number
            }
            rows.append(UInt32(record))
            tags.append(tag)
        }
        return (rows, tags)
    }

    private mutating func readHeader(
        _ record: Int, _ text: UnsafeBufferPointer<UInt8>, _ buffer: RawSheet.TextBuffer
    ) {
        headerRecord = record
        let header = (0..<raw.cellCount(record)).map { cell in
            String(decoding: cellText(record, cell, text, in: buffer), as: UTF8.self)
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
        _ record: Int, _ cell: Int, _ text: UnsafeBufferPointer<UInt8>, in buffer: RawSheet.TextBuffer
    ) -> UnsafeBufferPointer<UInt8> {
        guard cell < raw.cellCount(record) else { return UnsafeBufferPointer(rebasing: text[0..<0]) }
        return buffer.text(raw.cell(record, cell), of: text)
    }

    /// Whether every cell of a record is blank, as the reader's blank rows are.
    private func isBlank(_ record: Int, _ text: UnsafeBufferPointer<UInt8>, _ buffer: RawSheet.TextBuffer) -> Bool {
        for cell in 0..<raw.cellCount(record) where !ByteTrim.trimmed(cellText(record, cell, text, in: buffer)).isEmpty
        {
            return false
        }
        return true
    }

    /// Decides every changed cell of the existing rows, the rows split between the cores.
    mutating func plan() {
        guard !rowRecords.isEmpty, columns.contains(where: \.isWritable) else { return }
        // The rows and the merged assets are put in tag order at once, one on each core.
        // A small sheet is planned on the calling thread: starting workers would cost more than they save.
        let isLarge = rowRecords.count >= 2 * Self.rowsPerCore
        let planner = self
        let rowOrder = ResultSlots<(tags: [UInt64], rows: [UInt32])>(count: 1)
        let assetOrder = ResultSlots<(tags: [UInt64], indexes: [UInt32])>(count: 1)
        Parallel.perform(2, threads: isLarge ? Parallel.threads : 1) { task in
            if task == 0 { rowOrder[0] = planner.rowsByTag() } else { assetOrder[0] = planner.assetsByTag() }
        }
        let byTag = rowOrder[0]!
        let assets = mergedAssets(byTag, assetOrder[0]!)
        // Rows of one tag, linked in a ring, when a value another central row holds must be found.
        let rings = options.overwrite ? rowRings(byTag) : []
        guard isLarge else {
            changes.append(contentsOf: planRows(0..<rowRecords.count, assets: assets, rings: rings))
            return
        }
        let parts = Parallel.chunked(rowRecords.count, minimum: Self.rowsPerCore) { rows in
            planner.planRows(rows, assets: assets, rings: rings)
        }
        for part in parts { changes.append(contentsOf: part) }
    }

    /// The changed cells of `rows`.
    private func planRows(_ rows: Range<Int>, assets: [Int32], rings: [Int32]) -> SheetChanges {
        var changes = SheetChanges(source: raw.bytes, labels: changes.labels)
        raw.bytes.withUnsafeBufferPointer { planRows(rows, of: $0, assets: assets, rings: rings, into: &changes) }
        return changes
    }

    private func planRows(
        _ rows: Range<Int>, of text: UnsafeBufferPointer<UInt8>, assets: [Int32], rings: [Int32],
        into changes: inout SheetChanges
    ) {
        // Where quoted cells are unescaped: the row's own cell, and the cells of other rows compared with it.
        let buffer = RawSheet.TextBuffer()
        let otherBuffer = RawSheet.TextBuffer()
        // The canonical, merged and new texts of the cells, one after the other; emptied only once in a while.
        var scratch = ByteBuffer(capacity: 1 << 16)
        let tagDigits = reader.tagDigits
        for row in rows {
            let record = Int(rowRecords[row])
            let tag = rowTags[row] == Self.noTag ? nil : VTTag(number: rowTags[row], digits: tagDigits)
            let asset = assets[row] < 0 ? nil : Int(assets[row])
            let cellCount = raw.cellCount(record)
            for column in columns where column.isWritable {
                let isPastEnd = column.index >= cellCount
                if !isPastEnd && raw.isDamaged(record, column.index) { continue }
                let before = cellText(record, column.index, text, in: buffer)
                if scratch.count >= 1 << 16 { scratch.removeAll() }
                let start = scratch.count
                let reading = CanonicalCell.read(before, target: column.target, reader: reader, into: &scratch)
                let current = start..<scratch.count
                let after: Range<Int>
                let reason: ChangeReason
                switch reading {
                case .invalid:
                    continue
                case .empty:
                    guard options.fill, let asset, !column.isIdentity,
                        let merged = Self.append(reconciliation.assets[asset].packed, for: column, to: &scratch)
                    else { continue }
                    after = guardsFormulas ? Self.neutralized(merged, in: &scratch) : merged
                    reason = .filled
                case .value:
                    // A formula (the sheet's own, such as `=SUM(…)`) is the company's: neither rewritten nor replaced.
                    if scratch.withUnsafeBufferPointer({ CSVWriter.needsNeutralizing(.init(rebasing: $0[current])) }) {
                        continue
                    }
                    if options.overwrite, let asset, !column.isIdentity,
                        let merged = Self.append(reconciliation.assets[asset].packed, for: column, to: &scratch),
                        overwrites(
                            current, with: merged, in: scratch, row: row, rings: rings, column: column, text,
                            otherBuffer)
                    {
                        after = guardsFormulas ? Self.neutralized(merged, in: &scratch) : merged
                        reason = .overwritten
                    } else {
                        guard options.normalize else { continue }
                        after = current
                        reason = .normalized
                    }
                }
                scratch.withUnsafeBufferPointer { scratch in
                    let after = UnsafeBufferPointer(rebasing: scratch[after])
                    if Self.isSameText(after, before) { return }
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

    /// Appends the merged value's text for `column` to `scratch`; its range there, `nil` when the value is empty.
    private static func append(
        _ values: PackedValues, for column: Column, to scratch: inout ByteBuffer
    ) -> Range<Int>? {
        let start = scratch.count
        return CanonicalCell.append(values, for: column.target, to: &scratch) ? start..<scratch.count : nil
    }

    /// The range of the text at `range` of `scratch` with a leading `'` when a spreadsheet would run it as a
    /// formula, as `CSVWriter.neutralized` makes it: the same range, or a neutralized copy appended to `scratch`.
    private static func neutralized(_ range: Range<Int>, in scratch: inout ByteBuffer) -> Range<Int> {
        guard scratch.withUnsafeBufferPointer({ CSVWriter.needsNeutralizing(.init(rebasing: $0[range])) }) else {
            return range
        }
        let text = scratch.withUnsafeBufferPointer { Array($0[range]) }
        let start = scratch.count
        scratch.append(ASCII.apostrophe)
        text.withUnsafeBufferPointer { scratch.append(contentsOf: $0) }
        return start..<scratch.count
    }

    /// Whether the merged value at `merged` of `scratch` replaces the cell's own value at `current`: it differs,
    /// it is not an older date, and no other central row of the tag holds it.
    private func overwrites(
        _ current: Range<Int>, with merged: Range<Int>, in scratch: borrowing ByteBuffer, row: Int, rings: [Int32],
        column: Column,
        _ text: UnsafeBufferPointer<UInt8>, _ buffer: RawSheet.TextBuffer
    ) -> Bool {
        let (value, own) = scratch.withUnsafeBufferPointer { (Array($0[merged]), Array($0[current])) }
        if Self.isSameText(value, own) { return false }
        if column.target == .field(.lastSeen) && value.lexicographicallyPrecedes(own) { return false }
        return !anotherRow(of: row, in: rings, holds: value, in: column, text, buffer)
    }

    /// The data rows with a tag, ordered by tag number (rows of one tag in sheet order).
    private func rowsByTag() -> (tags: [UInt64], rows: [UInt32]) {
        var tags: [UInt64] = []
        var rows: [UInt32] = []
        tags.reserveCapacity(rowTags.count)
        rows.reserveCapacity(rowTags.count)
        for row in rowTags.indices where rowTags[row] != Self.noTag {
            tags.append(rowTags[row])
            rows.append(UInt32(row))
        }
        TagSort.sort(keys: &tags, values: &rows)
        return (tags, rows)
    }

    /// The merged assets with a tag of the sheet's digits: their tag numbers, ascending, and their indexes in the
    /// reconciliation (assets of one tag in reconciliation order).
    private func assetsByTag() -> (tags: [UInt64], indexes: [UInt32]) {
        var assetTags: [UInt64] = []
        var assetIndexes: [UInt32] = []
        assetTags.reserveCapacity(reconciliation.assets.count)
        assetIndexes.reserveCapacity(reconciliation.assets.count)
        for index in reconciliation.assets.indices {
            if let tag = reconciliation.assets[index].packed.vtTag, tag.digits == reader.tagDigits {
                assetTags.append(tag.number)
                assetIndexes.append(UInt32(index))
            }
        }
        TagSort.sort(keys: &assetTags, values: &assetIndexes)
        return (assetTags, assetIndexes)
    }

    /// For each data row, the index in the reconciliation of its tag's merged asset; -1 when there is none, or when
    /// the tag was found on two devices (`DUPLICATE_TAG`), whose rows are only normalized.
    ///
    /// Rows and assets are walked together in tag order; of several assets with one tag, the last counts.
    private func mergedAssets(
        _ byTag: (tags: [UInt64], rows: [UInt32]), _ assetsByTag: (tags: [UInt64], indexes: [UInt32])
    ) -> [Int32] {
        let (assetTags, assetIndexes) = assetsByTag
        var shared: [UInt64] = []
        for index in reconciliation.discrepancies.indices
        where reconciliation.discrepancies[index].code == .duplicateTag {
            if let tag = reconciliation.discrepancies[index].vtTag, tag.digits == reader.tagDigits {
                shared.append(tag.number)
            }
        }
        shared.sort()
        var assets = [Int32](repeating: -1, count: rowRecords.count)
        var asset = 0
        var sharedIndex = 0
        for (tag, row) in zip(byTag.tags, byTag.rows) {
            while asset < assetTags.count && assetTags[asset] < tag { asset += 1 }
            while asset + 1 < assetTags.count && assetTags[asset + 1] == tag { asset += 1 }
            guard asset < assetTags.count && assetTags[asset] == tag else { continue }
            while sharedIndex < shared.count && shared[sharedIndex] < tag { sharedIndex += 1 }
            if sharedIndex < shared.count && shared[sharedIndex] == tag { continue }
            assets[Int(row)] = Int32(assetIndexes[asset])
        }
        return assets
    }

    /// For each row, the next row with the same tag, in a ring (a row alone, or without a tag, is its own next).
    private func rowRings(_ byTag: (tags: [UInt64], rows: [UInt32])) -> [Int32] {
        var next = (0..<Int32(rowRecords.count)).map { $0 }
        var runStart = 0
        while runStart < byTag.tags.count {
            var runEnd = runStart + 1
            while runEnd < byTag.tags.count && byTag.tags[runEnd] == byTag.tags[runStart] { runEnd += 1 }
            for index in runStart..<runEnd {
                next[Int(byTag.rows[index])] = Int32(byTag.rows[index + 1 < runEnd ? index + 1 : runStart])
            }
            runStart = runEnd
        }
        return next
    }

    /// Whether another central row of the same tag holds `value` in `column`: the merged value may then be the
    /// central sheet's own, and the cell is left for the clerk.
    private func anotherRow(
        of row: Int, in rings: [Int32], holds value: [UInt8], in column: Column, _ text: UnsafeBufferPointer<UInt8>,
        _ buffer: RawSheet.TextBuffer
    ) -> Bool {
        var other = Int(rings[row])
        var reading: [UInt8] = []
        while other != row {
            reading.removeAll(keepingCapacity: true)
            let cell = cellText(Int(rowRecords[other]), column.index, text, in: buffer)
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
        let present = rowsByTag().tags
        var targets: [ColumnTarget?] = Array(repeating: nil, count: appendedWidth)
        for (column, target) in layout.plan { targets[column] = target }
        var number = rowRecords.count
        var text: [UInt8] = []
        var written: [UInt8] = []
        for index in reconciliation.assets.indices where reconciliation.assets[index].status == .unrecorded {
            let values = reconciliation.assets[index].packed
            guard let tag = values.vtTag, !typoScans.contains(tag),
                tag.digits != reader.tagDigits || !Self.contains(present, tag.number)
            else { continue }
            number += 1
            for column in 0..<appendedWidth {
                text.removeAll(keepingCapacity: true)
                guard let target = targets[column], target == .field(.vtTag) || options.allows(target),
                    CanonicalCell.append(values, for: target, to: &text)
                else { continue }
                written.removeAll(keepingCapacity: true)
                if guardsFormulas {
                    Self.appendNeutralized(text, to: &written)
                } else {
                    written.append(contentsOf: text)
                }
                written.withUnsafeBufferPointer {
                    changes.appendAdded(row: number, tag: tag, column: column, after: $0)
                }
            }
        }
    }

    /// Whether the ascending `tags` hold `tag`.
    private static func contains(_ tags: [UInt64], _ tag: UInt64) -> Bool {
        var low = 0
        var high = tags.count
        while low < high {
            let middle = (low + high) / 2
            if tags[middle] < tag { low = middle + 1 } else { high = middle }
        }
        return low < tags.count && tags[low] == tag
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
