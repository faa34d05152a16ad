import Testing

@testable import StocktakeCore

struct RowBatchTests {
    /// Each record of `text` as its cells, line, line count, end and problems.
    struct Seen: Equatable {
        var cells: [[UInt8]]
        var line: Int
        var lineCount: Int
        var end: Int
        var problems: [CSVFieldProblem]
        var fingerprint: RowFingerprint

        init(_ record: borrowing CSVRecord, fingerprint: RowFingerprint) {
            cells = (0..<record.count).map { Array(record[$0]) }
            line = record.line
            lineCount = record.lineCount
            end = record.end
            problems = record.problems
            self.fingerprint = fingerprint
        }
    }

    func fingerprint(_ record: borrowing CSVRecord) -> RowFingerprint {
        record.fingerprint
    }

    /// Rows copied into batches (a multi-line quoted cell, empty cells, a ragged row, a stray quote, bytes that are
    /// not UTF-8) come back exactly as the reader handed them out, in order, and the batch is empty after each drain.
    @Test func rowsComeBackAsTheReaderGaveThem() throws {
        var text = Array("a,b,c\n1,\"x\ny\",3\n,,\n4\n5,ab\"c,6\n".utf8) + [0x37, 0xFF, 0x2C, 0x38, 0x0A]
        for index in 0..<40 { text += Array("\(index),row \(index),\n".utf8) }
        var direct: [Seen] = []
        var reader = CSVReader(bytes: text, name: "batch.csv")
        try reader.forEachRecord { record in direct.append(Seen(record, fingerprint: fingerprint(record))) }
        #expect(direct.count == 46)
        #expect(direct.contains { !$0.problems.isEmpty })

        var batched: [Seen] = []
        var batch = RowBatch()
        func drain() {
            batch.drain { record, fingerprint in batched.append(Seen(record, fingerprint: fingerprint)) }
            #expect(batch.rows.isEmpty)
        }
        reader = CSVReader(bytes: text, name: "batch.csv")
        try reader.forEachRecord { record in
            batch.append(record, fingerprint: fingerprint(record))
            if batch.isFull { drain() }
        }
        drain()
        #expect(batched == direct)
    }
}
