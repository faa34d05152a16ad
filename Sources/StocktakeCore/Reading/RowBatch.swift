/// A few data rows copied out of the reader's buffers, so that their fingerprints are looked up together before the
/// rows are taken one by one.
///
/// A file's fingerprint table is large and looked up at random, so nearly every lookup waits for memory. Looked up
/// one row at a time, between the normalizing of rows, each lookup waits on its own; the lookups of a batch, issued
/// one after the other, wait for memory together. Copying a row's cells costs far less than that wait.
struct RowBatch {
    /// One row of the batch: what `CSVRecord` said of it, and where its cells are.
    struct Row {
        var fingerprint: RowFingerprint
        var line: Int
        var lineCount: Int
        var end: Int
        /// The indices of the row's cells in the batch's cells, and of its problems in `RowBatch.problems`.
        var cells: Range<Int>
        var problems: Range<Int>
    }

    /// How many rows a batch holds before it is taken.
    static let capacity = 16

    /// The rows, in file order.
    private(set) var rows: [Row] = []
    /// The cells of all rows, row after row; `nil` until a row is appended, so that an empty batch costs nothing.
    private var storage: Storage?
    /// The problems of all rows, row after row (most rows have none, so a row holds no array of its own).
    private var problems: [CSVFieldProblem] = []

    /// The bytes of all cells, one after the other, and where each cell ends (a cell starts where the one before it
    /// ends), in memory the batch manages itself:
    /// a row's cells are appended with plain copies, not an array append (and its checks) per cell. The memory is
    /// allocated when the first row is appended.
    private final class Storage {
        private(set) var bytes: UnsafeMutablePointer<UInt8>?
        private(set) var byteCount = 0
        private var byteCapacity = 0
        private(set) var ends: UnsafeMutablePointer<Int>?
        private(set) var cellCount = 0
        private var cellCapacity = 0
        private var fieldBuffer = UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>.allocate(capacity: 64)

        /// Appends the bytes of `cell`.
        @inline(__always)
        func append(_ cell: UnsafeBufferPointer<UInt8>) {
            if cellCount == cellCapacity { growCells() }
            let count = cell.count
            if byteCount + count > byteCapacity { growBytes(toHold: byteCount + count) }
            if count > 0 { (bytes! + byteCount).update(from: cell.baseAddress!, count: count) }
            byteCount += count
            ends![cellCount] = byteCount
            cellCount += 1
        }

        /// Room for the fields of the record being handed out, which point into `bytes`: at least `count`.
        func fields(count: Int) -> UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>> {
            if fieldBuffer.count < count {
                fieldBuffer.deallocate()
                fieldBuffer = .allocate(capacity: max(count, 2 * fieldBuffer.count))
            }
            return UnsafeMutableBufferPointer(rebasing: fieldBuffer[0..<count])
        }

        func removeAll() {
            byteCount = 0
            cellCount = 0
        }

        private func growBytes(toHold count: Int) {
            var capacity = max(byteCapacity * 2, 4096)
            while capacity < count { capacity *= 2 }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            if let bytes {
                grown.update(from: bytes, count: byteCount)
                bytes.deallocate()
            }
            bytes = grown
            byteCapacity = capacity
        }

        private func growCells() {
            let capacity = max(cellCapacity * 2, 256)
            let grown = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
            if let ends {
                grown.update(from: ends, count: cellCount)
                ends.deallocate()
            }
            ends = grown
            cellCapacity = capacity
        }

        deinit {
            bytes?.deallocate()
            ends?.deallocate()
            fieldBuffer.deallocate()
        }
    }

    /// Whether the batch holds `capacity` rows.
    var isFull: Bool { rows.count >= Self.capacity }

    /// Copies `record`, whose fingerprint is `fingerprint`, to the end of the batch.
    mutating func append(_ record: borrowing CSVRecord, fingerprint: RowFingerprint) {
        if storage == nil {
            storage = Storage()
            rows.reserveCapacity(Self.capacity)
        }
        let storage = storage!
        let firstCell = storage.cellCount
        for index in 0..<record.count { storage.append(record[index]) }
        let firstProblem = problems.count
        if !record.problems.isEmpty { problems.append(contentsOf: record.problems) }
        rows.append(
            Row(
                fingerprint: fingerprint, line: record.line, lineCount: record.lineCount, end: record.end,
                cells: firstCell..<storage.cellCount, problems: firstProblem..<problems.count))
    }

    /// Calls `body` with each row in order, as a record like the one appended and its fingerprint, then empties
    /// the batch (keeping its memory).
    mutating func drain(_ body: (borrowing CSVRecord, RowFingerprint) -> Void) {
        defer {
            rows.removeAll(keepingCapacity: true)
            storage?.removeAll()
            problems.removeAll(keepingCapacity: true)
        }
        guard let storage, !rows.isEmpty else { return }
        let bytes = UnsafePointer(storage.bytes)
        let ends = storage.ends!
        for row in rows {
            let fields = storage.fields(count: row.cells.count)
            var start = row.cells.lowerBound == 0 ? 0 : ends[row.cells.lowerBound - 1]
            for (field, cell) in row.cells.enumerated() {
                let end = ends[cell]
                fields[field] = UnsafeBufferPointer(start: bytes.map { $0 + start }, count: end - start)
                start = end
            }
            let record = CSVRecord(
                line: row.line, lineCount: row.lineCount, fields: UnsafeBufferPointer(fields),
                problems: row.problems.isEmpty ? [] : Array(problems[row.problems]), end: row.end)
            body(record, row.fingerprint)
        }
    }
}
