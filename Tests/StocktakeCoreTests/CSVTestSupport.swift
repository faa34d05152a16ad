import Testing

@testable import StocktakeCore

/// A record copied out of the reader's callback, for comparing in tests.
struct CSVReadRecord: Equatable, CustomStringConvertible {
    var line: Int
    var lineCount: Int
    var fields: [String]
    var problems: [CSVFieldProblem] = []

    var description: String { "line \(line)+\(lineCount) \(fields) \(problems)" }
}

/// Everything a reader reports about one text, for comparing in tests.
struct CSVReadResult: Equatable {
    var records: [CSVReadRecord] = []
    var fieldBytes: [[[UInt8]]] = []
    var delimiter: Delimiter = .comma
    var hadByteOrderMark = false
    var encoding = TextEncoding.utf8
    var lineEnding: String?
    var error: CSVError?
}

/// Reads `reader` to the end, collecting records, properties and the error that stopped it.
func readAllCSV(_ reader: inout CSVReader) -> CSVReadResult {
    var result = CSVReadResult()
    do {
        try reader.forEachRecord { record in
            result.records.append(
                CSVReadRecord(
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
    result.encoding = reader.encoding
    result.lineEnding = reader.lineEnding
    return result
}

/// Reads in-memory bytes with the given name, delimiter and chunk size.
/// `encoding` is the encoding required of text without a byte-order mark (`nil`: decided from the text).
func readCSV(
    _ bytes: [UInt8], name: String = "test.csv", delimiter: Delimiter? = nil, chunkSize: Int = 1 << 20,
    encoding: TextEncoding? = nil
) -> CSVReadResult {
    var reader = CSVReader(bytes: bytes, name: name, delimiter: delimiter, chunkSize: chunkSize)
    reader.requiredEncoding = encoding
    return readAllCSV(&reader)
}

/// Reads in-memory text with the given name, delimiter and chunk size.
func readCSV(
    _ text: String, name: String = "test.csv", delimiter: Delimiter? = nil, chunkSize: Int = 1 << 20
) -> CSVReadResult {
    readCSV(Array(text.utf8), name: name, delimiter: delimiter, chunkSize: chunkSize)
}

/// A small deterministic random generator (SplitMix64), so that randomized tests can be replayed.
struct CSVTestRandomGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
