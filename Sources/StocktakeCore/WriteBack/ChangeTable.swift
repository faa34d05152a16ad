/// `changes.csv`: every cell a push changes in the central sheet, in sheet order, appended rows last.
///
/// It is written on every run, pushed or not, so the clerk can see what a push would do before allowing it.
/// Cells are neutralized against formula injection like every other table stocktake writes. Rows are written from
/// the compact `SheetChanges` straight into the file's bytes, a block of changes at a time, the blocks formatted on
/// all cores and written in order (`file(_:to:synchronizingFolder:)`).
public enum ChangeTable {
    /// The header of `changes.csv`.
    public static let columns = ["row", "vt_tag", "column", "before", "after", "reason"]

    /// The most changes formatted in one block.
    static let changesPerBlock = 16_384

    /// The file's bytes.
    public static func csv(_ changes: SheetChanges) -> [UInt8] {
        var bytes: [UInt8] = []
        CSVWriter.appendRow(columns, to: &bytes)
        let rows = Rows(changes)
        for block in blocks(of: changes) {
            rows.block(part: block.part, block.changes).withUnsafeBytes { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// Writes the file to `path` atomically; with `synchronizingFolder` false its folder is left for the caller to
    /// flush. With `pending` the written file is handed to it, flushing, to take its name when it is committed.
    public static func write(_ changes: SheetChanges, to path: String, synchronizingFolder: Bool = true)
        throws(StocktakeError)
    {
        try write(changes, to: path, synchronizingFolder: synchronizingFolder, deferringTo: nil)
    }

    static func write(
        _ changes: SheetChanges, to path: String, synchronizingFolder: Bool, deferringTo pending: PendingOutputs?
    ) throws(StocktakeError) {
        let file = Self.file(changes, to: path, synchronizingFolder: synchronizingFolder)
        // A file of one block is written on the calling thread: a second worker would have nothing to do.
        try PieceWriter.write([file], threads: file.pieceCount == 1 ? 1 : Parallel.threads, deferringTo: pending)
    }

    /// `changes.csv` as a file `PieceWriter` writes: its blocks of changes (`blocks(of:)`) formatted on all cores and
    /// written in order, atomically, as the other tables are. A file without changes is its header alone.
    static func file(_ changes: SheetChanges, to path: String, synchronizingFolder: Bool) -> TableFile {
        let rows = Rows(changes)
        let blocks = blocks(of: changes)
        return TableFile(
            header: columns, pieceCount: max(1, blocks.count), to: path, synchronizingFolder: synchronizingFolder
        ) { index in
            index < blocks.count ? rows.block(part: blocks[index].part, blocks[index].changes) : ByteBuffer()
        }
    }

    /// The blocks the changes are formatted in: at most `changesPerBlock` changes of one part each, in order.
    static func blocks(of changes: SheetChanges) -> [(part: Int, changes: Range<Int>)] {
        var blocks: [(part: Int, changes: Range<Int>)] = []
        for part in changes.parts.indices {
            let count = changes.parts[part].entries.count
            for start in stride(from: 0, to: count, by: changesPerBlock) {
                blocks.append((part, start..<min(count, start + changesPerBlock)))
            }
        }
        return blocks
    }

    /// Formats rows of one list of changes.
    struct Rows: Sendable {
        let changes: SheetChanges
        /// Each column's header as a CSV cell.
        let labels: [[UInt8]]

        init(_ changes: SheetChanges) {
            self.changes = changes
            labels = changes.labels.map { label in
                var cell: [UInt8] = []
                CSVWriter.appendField(label, to: &cell)
                return cell
            }
        }

        /// The rows of changes `range` of part `part`, each ended by CRLF.
        func block(part index: Int, _ range: Range<Int>) -> ByteBuffer {
            let part = changes.parts[index]
            // Room for the longest form of every row: each cell neutralized, quoted and every byte a quote.
            var bound = 0
            for entry in part.entries[range] {
                bound += 64 + Int(entry.tagDigits) + labels[Int(entry.column)].count
                bound += 2 * changes.beforeRange(entry).count
            }
            let firstAfter = range.isEmpty ? 0 : part.afterRange(range.lowerBound).lowerBound
            let lastAfter = range.isEmpty ? 0 : part.afterRange(range.upperBound - 1).upperBound
            bound += 2 * (lastAfter - firstAfter)
            let buffer = RawSheet.TextBuffer()
            var block = ByteBuffer(capacity: bound)
            block.append(atMost: bound) { output in
                var cursor = ByteCursor(output)
                changes.source.withUnsafeBufferPointer { source in
                    part.afterTexts.withUnsafeBufferPointer { afterTexts in
                        var afterStart = firstAfter
                        for entry in part.entries[range] {
                            cursor.appendDecimal(UInt64(entry.row), digits: 1)
                            cursor.append(ASCII.comma)
                            if entry.hasTag { cursor.appendDecimal(entry.tagNumber, digits: Int(entry.tagDigits)) }
                            cursor.append(ASCII.comma)
                            labels[Int(entry.column)].withUnsafeBufferPointer { cursor.append($0) }
                            cursor.append(ASCII.comma)
                            cursor.appendField(buffer.text(changes.beforeRange(entry), of: source))
                            cursor.append(ASCII.comma)
                            let afterEnd = Int(entry.afterEnd)
                            cursor.appendField(UnsafeBufferPointer(rebasing: afterTexts[afterStart..<afterEnd]))
                            afterStart = afterEnd
                            cursor.append(ASCII.comma)
                            cursor.appendReason(entry.reason)
                            cursor.append(ASCII.carriageReturn)
                            cursor.append(ASCII.lineFeed)
                        }
                    }
                }
                let count = cursor.pointer - output
                precondition(count <= bound, "a block of changes.csv outgrew the room made for it")
                return count
            }
            return block
        }
    }

    /// Writes bytes one after another into memory made ready for them.
    private struct ByteCursor {
        var pointer: UnsafeMutablePointer<UInt8>

        init(_ pointer: UnsafeMutablePointer<UInt8>) {
            self.pointer = pointer
        }

        mutating func append(_ byte: UInt8) {
            pointer.initialize(to: byte)
            pointer += 1
        }

        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            pointer.initialize(from: base, count: bytes.count)
            pointer += bytes.count
        }

        /// Appends `number` in decimal, left-padded with zeros to `digits`, as `CanonicalText.append` writes it.
        mutating func appendDecimal(_ number: UInt64, digits: Int) {
            let width = max(DecimalDigits.count(number), digits)
            DecimalDigits.write(number, count: width, to: pointer)
            pointer += width
        }

        /// Appends one cell as `CSVWriter.appendField` writes it, by its rules (`needsNeutralizing`, `quotingBytes`):
        /// neutralized against formulas, quoted with inner quotes doubled when it holds a comma, a quote or a line
        /// break.
        mutating func appendField(_ cell: UnsafeBufferPointer<UInt8>) {
            let prefix = CSVWriter.needsNeutralizing(cell)
            // Most cells are copied as they are, once a look at eight bytes at a time has found nothing to quote.
            guard CSVWriter.needsQuotes(cell) else {
                if prefix { append(ASCII.apostrophe) }
                append(cell)
                return
            }
            append(ASCII.quote)
            if prefix { append(ASCII.apostrophe) }
            for byte in cell {
                append(byte)
                if byte == ASCII.quote { append(ASCII.quote) }
            }
            append(ASCII.quote)
        }

        /// Appends the name of `reason`, as its raw value spells it.
        mutating func appendReason(_ reason: ChangeReason) {
            let name: StaticString =
                switch reason {
                case .normalized: "normalized"
                case .filled: "filled"
                case .overwritten: "overwritten"
                case .added: "added"
                }
            append(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }
    }
}
