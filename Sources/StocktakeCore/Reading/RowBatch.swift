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
        /// The row's cells in `RowBatch.cells`, and its problems in `RowBatch.problems`.
        var cells: Range<Int>
        var problems: Range<Int>
    }

    /// How many rows a batch holds before it is taken.
    static let capacity = 16

    /// The rows, in file order.
    private(set) var rows: [Row] = []
    /// Where each cell of each row is in `bytes`, row after row.
    private var cells: [Range<Int>] = []
    /// The bytes of all cells, one after the other.
    private var bytes: [UInt8] = []
    /// The problems of all rows, row after row (most rows have none, so a row holds no array of its own).
    private var problems: [CSVFieldProblem] = []
    /// The fields of the record being handed out, pointing into `bytes`.
    private var fields: [UnsafeBufferPointer<UInt8>] = []

    /// Whether the batch holds `capacity` rows.
    var isFull: Bool { rows.count >= Self.capacity }

    /// Copies `record`, whose fingerprint is `fingerprint`, to the end of the batch.
    mutating func append(_ record: borrowing CSVRecord, fingerprint: RowFingerprint) {
        let firstCell = cells.count
        for index in 0..<record.count {
            let cell = record[index]
            let start = bytes.count
            bytes.append(contentsOf: cell)
            cells.append(start..<bytes.count)
        }
        let firstProblem = problems.count
        if !record.problems.isEmpty { problems.append(contentsOf: record.problems) }
        rows.append(
            Row(
                fingerprint: fingerprint, line: record.line, lineCount: record.lineCount, end: record.end,
                cells: firstCell..<cells.count, problems: firstProblem..<problems.count))
    }

    /// Calls `body` with each row in order, as a record like the one appended and its fingerprint, then empties
    /// the batch (keeping its memory).
    mutating func drain(_ body: (borrowing CSVRecord, RowFingerprint) -> Void) {
        defer {
            rows.removeAll(keepingCapacity: true)
            cells.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
            problems.removeAll(keepingCapacity: true)
        }
        bytes.withUnsafeBufferPointer { bytes in
            for row in rows {
                fields.removeAll(keepingCapacity: true)
                for cell in cells[row.cells] { fields.append(UnsafeBufferPointer(rebasing: bytes[cell])) }
                fields.withUnsafeBufferPointer { fields in
                    let record = CSVRecord(
                        line: row.line, lineCount: row.lineCount, fields: fields,
                        problems: row.problems.isEmpty ? [] : Array(problems[row.problems]), end: row.end)
                    body(record, row.fingerprint)
                }
            }
        }
    }
}
