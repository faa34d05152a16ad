import Testing

@testable import StocktakeCore

/// A record copied out of the reader's callback, for comparing in tests.
struct ReadRecord: Equatable, CustomStringConvertible {
    var line: Int
    var lineCount: Int
    var fields: [String]
    var problems: [CSVFieldProblem] = []

    var description: String { "line \(line)+\(lineCount) \(fields) \(problems)" }
}

/// Everything a reader reports about one text, for comparing in tests.
struct ReadResult: Equatable {
    var records: [ReadRecord] = []
    var fieldBytes: [[[UInt8]]] = []
    var delimiter: Delimiter = .comma
    var hadByteOrderMark = false
    var lineEnding: String?
    var error: CSVError?
}

/// Reads `reader` to the end, collecting records, properties and the error that stopped it.
func readAll(_ reader: inout CSVReader) -> ReadResult {
    var result = ReadResult()
    do {
        try reader.forEachRecord { record in
            result.records.append(
                ReadRecord(
                    line: record.line, lineCount: record.lineCount, fields: record.strings, problems: record.problems))
            result.fieldBytes.append((0..<record.count).map { Array(record[$0]) })
        }
    } catch let error as CSVError {
        result.error = error
    } catch {
        Issue.record("unexpected error \(error)")
    }
    result.delimiter = reader.delimiter
    result.hadByteOrderMark = reader.hadByteOrderMark
    result.lineEnding = reader.lineEnding
    return result
}

/// Reads in-memory bytes with the given name, delimiter and chunk size.
func read(
    _ bytes: [UInt8], name: String = "test.csv", delimiter: Delimiter? = nil, chunkSize: Int = 1 << 20
) -> ReadResult {
    var reader = CSVReader(bytes: bytes, name: name, delimiter: delimiter, chunkSize: chunkSize)
    return readAll(&reader)
}

/// Reads in-memory text with the given name, delimiter and chunk size.
func read(
    _ text: String, name: String = "test.csv", delimiter: Delimiter? = nil, chunkSize: Int = 1 << 20
) -> ReadResult {
    read(Array(text.utf8), name: name, delimiter: delimiter, chunkSize: chunkSize)
}
