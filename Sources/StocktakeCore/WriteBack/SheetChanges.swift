/// Every cell a push changes in the central sheet, in sheet order, appended rows last: the rows of `changes.csv`.
///
/// A night can change millions of cells, so the changes are kept compactly rather than as `SheetChange` values:
/// a cell's text before the change stays where it is in the pulled sheet (a byte range), the texts after the
/// change share byte buffers, and column headers are kept once. `changes.csv` is written from this form
/// directly (`ChangeTable`); each element is made into a `SheetChange` only when it is read.
///
/// The changes are kept in parts, one per stretch of rows planned at once (see `WriteBackPlanner`), each with its
/// own entries and texts: parts planned on different cores are joined by reference, never copied into one array.
/// A stretch with more than `entriesPerPart` changes goes on in a new part, made at about its full size, so that
/// its entries and texts are written once instead of being copied into ever larger arrays as they grow.
public struct SheetChanges: RandomAccessCollection, Equatable, ExpressibleByArrayLiteral, Sendable {
    /// One change, in 32 bytes.
    struct Entry {
        /// The VT tag's number, when `hasTag`.
        var tagNumber: UInt64
        /// The 1-based data row, as `SheetChange.row`.
        var row: UInt32
        /// The index in `labels` of the column's header, which is the column's index in the sheet.
        var column: UInt32
        /// The cell's bytes in `source`, quotes included: the text before the change. For a cell past the end of a
        /// short row, `start` is where the row ends and `end` is the row's number of cells; for an appended row,
        /// both are 0.
        var start: UInt32
        var end: UInt32
        /// Where the text after the change ends in its part's `afterTexts`; it starts where the previous entry's
        /// of the same part ends.
        var afterEnd: UInt32
        var reason: ChangeReason
        var hasTag: Bool
        var tagDigits: UInt8
        /// Whether the cell lies past the end of a short row (sheet exports leave out trailing empty cells).
        var isPastEnd: Bool
    }

    /// Consecutive changes with their texts after the change, one after the other, exactly as written.
    struct Part: Sendable {
        var entries: [Entry] = []
        var afterTexts: [UInt8] = []

        /// Where the text after change `index` of this part lies in `afterTexts`.
        func afterRange(_ index: Int) -> Range<Int> {
            (index == 0 ? 0 : Int(entries[index - 1].afterEnd))..<Int(entries[index].afterEnd)
        }
    }

    /// The entries of every part as one collection, in order.
    struct Entries: RandomAccessCollection {
        fileprivate let parts: [Part]
        fileprivate let partStarts: [Int]
        var startIndex: Int { 0 }
        var endIndex: Int { partStarts[partStarts.count - 1] }
        subscript(position: Int) -> Entry {
            let (part, index) = SheetChanges.locate(position, partStarts)
            return parts[part].entries[index]
        }
    }

    /// The most changes a part that is appended to holds (8 MiB of entries): a stretch of a million rows that each
    /// change three cells makes a dozen parts.
    static let entriesPerPart = 1 << 18

    /// The bytes the `before` ranges point into: the pulled sheet.
    let source: [UInt8]
    /// The sheet's header text of each column ("(column N)" when the header cell is empty).
    let labels: [String]
    /// The changes, part after part; no part is empty.
    private(set) var parts: [Part] = []
    /// The position of the first change of each part, then the number of changes.
    private var partStarts: [Int] = [0]

    /// Every change's entry, in order.
    var entries: Entries { Entries(parts: parts, partStarts: partStarts) }

    /// Starts an empty list of the changes of the sheet `source`, whose columns are headed `labels`.
    init(source: [UInt8], labels: [String]) {
        precondition(source.count < Int(UInt32.max), "a sheet of 4 GiB or more cannot be planned")
        self.source = source
        self.labels = labels
    }

    /// The changes of a list of `SheetChange` values (tests and callers that build a table themselves).
    public init(_ changes: some Sequence<SheetChange>) {
        var source: [UInt8] = []
        var labels: [String] = []
        var columns: [String: Int] = [:]
        var entries: [Entry] = []
        var afterTexts: [UInt8] = []
        for change in changes {
            let column = columns[change.column] ?? labels.count
            if column == labels.count {
                columns[change.column] = column
                labels.append(change.column)
            }
            // The text before is kept quoted, as a sheet would hold it, so it reads back as it is.
            let start = source.count
            source.append(ASCII.quote)
            for byte in change.before.utf8 {
                source.append(byte)
                if byte == ASCII.quote { source.append(ASCII.quote) }
            }
            source.append(ASCII.quote)
            afterTexts.append(contentsOf: change.after.utf8)
            entries.append(
                Entry(
                    tagNumber: change.vtTag?.number ?? 0, row: UInt32(clamping: change.row), column: UInt32(column),
                    start: UInt32(start), end: UInt32(source.count), afterEnd: UInt32(afterTexts.count),
                    reason: change.reason, hasTag: change.vtTag != nil,
                    tagDigits: UInt8(clamping: change.vtTag?.digits ?? 0), isPastEnd: false))
        }
        self.init(source: source, labels: labels)
        if !entries.isEmpty { append(Part(entries: entries, afterTexts: afterTexts)) }
    }

    public init(arrayLiteral changes: SheetChange...) {
        self.init(changes)
    }

    // MARK: Collection

    public var startIndex: Int { 0 }
    public var endIndex: Int { partStarts[partStarts.count - 1] }

    /// The change at `position`, made into a `SheetChange`.
    public subscript(position: Int) -> SheetChange {
        let (part, index) = locate(position)
        let entry = parts[part].entries[index]
        let before = source.withUnsafeBufferPointer { text in
            var scratch: [UInt8] = []
            return RawSheet.withText(beforeRange(entry), of: text, scratch: &scratch) {
                String(decoding: $0, as: UTF8.self)
            }
        }
        let after = withAfterText(position) { String(decoding: $0, as: UTF8.self) }
        return SheetChange(
            row: Int(entry.row), vtTag: tag(entry), column: labels[Int(entry.column)], before: before, after: after,
            reason: entry.reason)
    }

    /// Whether both lists hold the same changes in the same order.
    public static func == (lhs: SheetChanges, rhs: SheetChanges) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    // MARK: Counts

    /// How many cells of existing rows change.
    public var changedCellCount: Int {
        var count = 0
        for part in parts {
            for entry in part.entries where entry.reason != .added { count += 1 }
        }
        return count
    }

    /// How many rows are appended.
    public var addedRowCount: Int {
        var count = 0
        var lastRow: UInt32?
        for part in parts {
            for entry in part.entries where entry.reason == .added && entry.row != lastRow {
                count += 1
                lastRow = entry.row
            }
        }
        return count
    }

    /// The numbers of the VT tags whose rows change or are appended: a finding on one of them may be gone next night
    /// because of this push (`fixed_by_push`).
    public var changedTagNumbers: Set<UInt64> {
        var numbers = Set<UInt64>()
        for part in parts {
            for entry in part.entries where entry.hasTag { numbers.insert(entry.tagNumber) }
        }
        return numbers
    }

    // MARK: Building and reading

    /// Records the change of one existing cell, whose bytes in the sheet are `cell`.
    mutating func append(
        row: Int, tag: VTTag?, column: Int, cell: Range<Int>, after: UnsafeBufferPointer<UInt8>, reason: ChangeReason
    ) {
        append(row: row, tag: tag, column: column, start: cell.lowerBound, end: cell.upperBound, after: after) {
            $0.reason = reason
        }
    }

    /// Records the change of a cell past the end of a short row of `cellCount` cells that ends at `rowEnd`.
    mutating func append(
        row: Int, tag: VTTag?, column: Int, pastEndOf rowEnd: Int, cellCount: Int, after: UnsafeBufferPointer<UInt8>,
        reason: ChangeReason
    ) {
        append(row: row, tag: tag, column: column, start: rowEnd, end: cellCount, after: after) {
            $0.reason = reason
            $0.isPastEnd = true
        }
    }

    /// Records a cell of an appended row.
    mutating func appendAdded(row: Int, tag: VTTag, column: Int, after: UnsafeBufferPointer<UInt8>) {
        append(row: row, tag: tag, column: column, start: 0, end: 0, after: after) { $0.reason = .added }
    }

    private mutating func append(
        row: Int, tag: VTTag?, column: Int, start: Int, end: Int, after: UnsafeBufferPointer<UInt8>,
        _ adjust: (inout Entry) -> Void
    ) {
        if parts.isEmpty {
            parts.append(Part())
            partStarts.append(partStarts[0])
        } else if parts[parts.count - 1].entries.count >= Self.entriesPerPart {
            // Its texts are about as long as those of the part it follows.
            var part = Part()
            part.entries.reserveCapacity(Self.entriesPerPart)
            part.afterTexts.reserveCapacity(parts[parts.count - 1].afterTexts.count / 8 * 9)
            parts.append(part)
            partStarts.append(partStarts[partStarts.count - 1])
        }
        let last = parts.count - 1
        parts[last].afterTexts.append(contentsOf: after)
        let afterEnd = parts[last].afterTexts.count
        precondition(afterEnd < Int(UInt32.max), "the changes' texts come to 4 GiB or more")
        var entry = Entry(
            tagNumber: tag?.number ?? 0, row: UInt32(clamping: row), column: UInt32(clamping: column),
            start: UInt32(clamping: start), end: UInt32(clamping: end), afterEnd: UInt32(afterEnd),
            reason: .normalized, hasTag: tag != nil, tagDigits: UInt8(clamping: tag?.digits ?? 0), isPastEnd: false)
        adjust(&entry)
        parts[last].entries.append(entry)
        partStarts[partStarts.count - 1] += 1
    }

    /// Appends the changes of `other`, planned over the same sheet, after these: its parts are taken as they are.
    mutating func append(contentsOf other: SheetChanges) {
        for part in other.parts { append(part) }
    }

    /// Appends a part of changes; an empty one is dropped.
    private mutating func append(_ part: Part) {
        guard !part.entries.isEmpty else { return }
        parts.append(part)
        partStarts.append(partStarts[partStarts.count - 1] + part.entries.count)
    }

    /// The part holding change `position`, and its index there.
    func locate(_ position: Int) -> (part: Int, index: Int) {
        Self.locate(position, partStarts)
    }

    /// The part holding change `position` among parts starting at `partStarts`, and its index there.
    private static func locate(_ position: Int, _ partStarts: [Int]) -> (part: Int, index: Int) {
        partStarts.withUnsafeBufferPointer { starts in
            guard starts.count > 2 else { return (0, position) }
            var part = 0
            if starts.count <= partsCountedInLine + 1 {
                // A few parts (a few per core): counting those that start at or before `position`, without a branch,
                // is faster than a binary search whose branches cannot be predicted.
                for index in 1..<(starts.count - 1) { part &+= position >= starts[index] ? 1 : 0 }
            } else {
                // Many (a sheet of millions of changes has one for every `entriesPerPart`): the last part that
                // starts at or before `position`, found by halving.
                var upper = starts.count - 2
                while part < upper {
                    let middle = (part + upper + 1) / 2
                    if starts[middle] <= position { part = middle } else { upper = middle - 1 }
                }
            }
            return (part, position &- starts[part])
        }
    }

    /// Up to how many parts `locate` counts them all rather than halving.
    static let partsCountedInLine = 32

    /// The VT tag of a change's row.
    func tag(_ entry: Entry) -> VTTag? {
        entry.hasTag ? VTTag(number: entry.tagNumber, digits: Int(entry.tagDigits)) : nil
    }

    /// The bytes of the cell before the change in `source` (empty for cells past a row's end and appended rows).
    func beforeRange(_ entry: Entry) -> Range<Int> {
        entry.isPastEnd || entry.reason == .added ? 0..<0 : Int(entry.start)..<Int(entry.end)
    }

    /// Calls `body` with the text after change `position`.
    func withAfterText<Result>(_ position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let (part, index) = locate(position)
        let range = parts[part].afterRange(index)
        return parts[part].afterTexts.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }
}
