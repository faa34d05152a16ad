import Testing

@testable import StocktakeCore

/// How reading sizes its tables for the rows a file will hold (`ReadState.presize`).
struct ReadStateTests {
    let reader = SourceReader(mapping: .builtIn)
    let file = SourceFile(path: "scan.csv", role: .sighting)

    /// The records of `text` read in one part, as a nightly run reads a file.
    func records(of text: String) -> [SourceRecord] {
        let split = SourceSplit(
            file: file, reader: reader, bytes: Array(text.utf8), name: "scan.csv", cuts: [], atLineBreaks: true,
            chunkSize: 1 << 20)
        return split.readPart(0).data.records
    }

    /// Rows alike in length: `count` of them, tags from 100000 on.
    func rows(_ count: Int, from first: Int = 100_000) -> String {
        (first..<first + count).map { "\($0),CN\($0),AP-515\n" }.joined()
    }

    /// A file of 3,000 rows is sized once its first 256 rows show how long a row is: its records end with room for
    /// about 3,300 (the estimate and a tenth), not the 4,096 an array that grew row by row would have made.
    @Test func aSmallFileIsSizedAfterItsFirstRows() {
        let records = records(of: "Tag,Serial,Model\n" + rows(3_000))
        #expect(records.count == 3_000)
        #expect(records.capacity >= 3_000 && records.capacity < 3_600, "capacity \(records.capacity)")
    }

    /// A file whose first 256 rows are short and whose other rows are long would be estimated at more than 16,384
    /// rows from its start: it is not sized then, so that a wrong early estimate never fills memory; its 300 rows
    /// grow the records as an array grows.
    @Test func aFileEstimatedLargeFromItsFirstRowsWaitsForASurerEstimate() {
        let long = (200_000..<200_044).map { "\($0),CN\($0)," + String(repeating: "M", count: 20_000) + "\n" }
        let records = records(of: "Tag,Serial,Model\n" + rows(256) + long.joined())
        #expect(records.count == 300)
        #expect(records.capacity < 16_384, "capacity \(records.capacity)")
    }
}
