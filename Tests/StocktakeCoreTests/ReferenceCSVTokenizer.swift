import Testing

@testable import StocktakeCore

/// The tokenizer as it was before fields were sliced out of chunks (commit 61ca8d3): it copies every byte, so it
/// is a plain reference for what `CSVReader` must deliver. Fed the whole text at once.
///
/// The byte-level state machine that splits delimited text into records, fed one chunk at a time.
///
/// Chunks may end anywhere (inside quotes, between CR and LF, inside a UTF-8 sequence): all state lives in the
/// tokenizer, not in the chunk. Field bytes go to one growing buffer and field ends to one list of offsets, both
/// reused from record to record, so parsing allocates nothing per field once the buffers have grown.
struct ReferenceCSVTokenizer {
    /// Where the tokenizer is in the text.
    private enum State {
        /// Between records: line ends here are blank lines and are skipped.
        case recordStart
        /// At the first byte of a field (after a delimiter, or at a record's first byte).
        case fieldStart
        /// Inside a field that did not start with a quote, or after the closing quote of one that did.
        case unquoted
        /// Inside a quoted field.
        case quoted
        /// Just after a `"` inside a quoted field: either half of a `""` escape or the closing quote.
        case quoteInQuoted
    }

    /// The bytes that end a run of plain bytes inside a quoted field (quote, CR, LF), as bits of a mask.
    /// All special bytes are below 64, so one bit test per byte finds them, and letters fail the `< 64` test first.
    private static let quotedStops: UInt64 =
        1 << UInt64(ASCII.quote) | 1 << UInt64(ASCII.carriageReturn) | 1 << UInt64(ASCII.lineFeed)

    /// The field separator byte.
    private let delimiter: UInt8
    /// The bytes that end a run of plain bytes outside quotes: those of `quotedStops` plus the delimiter.
    private let unquotedStops: UInt64
    /// The file name used in errors.
    private let fileName: String
    /// Where the tokenizer is; kept between chunks.
    private var state = State.recordStart
    /// 1-based physical line of the byte being read.
    private var line = 1
    /// Whether the last byte read was a CR, so that a following LF completes a CRLF rather than a new line end.
    private var previousByteWasCarriageReturn = false
    /// Whether the first line end outside quotes was a CR whose successor (LF or not) is still unknown.
    private var awaitingByteAfterFirstCarriageReturn = false
    /// 1-based physical line where the current record started.
    private var recordLine = 1
    /// 1-based physical line where the current field started (for a quoted field, where its quote opened).
    private var fieldLine = 1
    /// Whether a stray quote was already reported for the current field (it is reported once per field).
    private var fieldHasStrayQuote = false
    /// All bytes of the current field OR-ed together: when its top bit is clear the field is ASCII, and needs no
    /// UTF-8 check.
    private var fieldByteUnion: UInt8 = 0
    /// Unescaped bytes of the current record's fields, one after the other.
    private var bytes: [UInt8] = []
    /// End offset in `bytes` of each finished field of the current record.
    private var fieldEnds: [Int] = []
    /// Problems found so far in the current record.
    private var problems: [CSVFieldProblem] = []
    /// The first line end seen outside quotes: "CRLF", "LF" or "CR"; `nil` until one is seen.
    private(set) var lineEnding: String?

    /// Creates a tokenizer splitting fields on `delimiter`; `fileName` names the file in errors.
    init(delimiter: Delimiter, fileName: String) {
        self.delimiter = delimiter.rawValue
        unquotedStops = ReferenceCSVTokenizer.quotedStops | 1 << UInt64(delimiter.rawValue)
        self.fileName = fileName
        bytes.reserveCapacity(4096)
        fieldEnds.reserveCapacity(64)
    }

    /// Parses the next chunk of the file, calling `body` with each record completed in it.
    mutating func consume(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (CSVReadRecord, [[UInt8]]) -> Void) {
        let count = chunk.count
        var index = 0
        while index < count {
            switch state {
            case .recordStart:
                let byte = chunk[index]
                if awaitingByteAfterFirstCarriageReturn {
                    awaitingByteAfterFirstCarriageReturn = false
                    lineEnding = byte == ASCII.lineFeed ? "CRLF" : "CR"
                }
                if byte == ASCII.lineFeed && previousByteWasCarriageReturn {
                    previousByteWasCarriageReturn = false
                    index += 1
                } else if byte == ASCII.carriageReturn || byte == ASCII.lineFeed {
                    endLine(with: byte)
                    index += 1
                } else {
                    previousByteWasCarriageReturn = false
                    recordLine = line
                    state = .fieldStart
                }
            case .fieldStart:
                fieldLine = line
                if chunk[index] == ASCII.quote {
                    state = .quoted
                    index += 1
                } else {
                    state = .unquoted
                }
            case .unquoted:
                let runStart = index
                var union: UInt8 = 0
                while index < count {
                    let byte = chunk[index]
                    if byte < 64 && unquotedStops & (1 &<< byte) != 0 { break }
                    union |= byte
                    index += 1
                }
                fieldByteUnion |= union
                if index > runStart {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[runStart..<index]))
                }
                guard index < count else { continue }
                let byte = chunk[index]
                index += 1
                if byte == delimiter {
                    endField()
                    state = .fieldStart
                } else if byte == ASCII.quote {
                    noteStrayQuote()
                    bytes.append(byte)
                } else {
                    endField()
                    endRecord(body)
                    state = .recordStart
                    endLine(with: byte)
                }
            case .quoted:
                let runStart = index
                var union: UInt8 = 0
                while index < count {
                    let byte = chunk[index]
                    if byte < 64 && ReferenceCSVTokenizer.quotedStops & (1 &<< byte) != 0 { break }
                    union |= byte
                    index += 1
                }
                fieldByteUnion |= union
                if index > runStart {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[runStart..<index]))
                    previousByteWasCarriageReturn = false
                }
                guard index < count else { continue }
                let byte = chunk[index]
                index += 1
                if byte == ASCII.quote {
                    previousByteWasCarriageReturn = false
                    state = .quoteInQuoted
                } else {
                    bytes.append(byte)
                    if byte == ASCII.carriageReturn {
                        line += 1
                        previousByteWasCarriageReturn = true
                    } else {
                        if !previousByteWasCarriageReturn { line += 1 }
                        previousByteWasCarriageReturn = false
                    }
                }
            case .quoteInQuoted:
                let byte = chunk[index]
                if byte == ASCII.quote {
                    bytes.append(byte)
                    state = .quoted
                    index += 1
                } else {
                    if byte != delimiter && byte != ASCII.carriageReturn && byte != ASCII.lineFeed {
                        noteStrayQuote()
                    }
                    state = .unquoted
                }
            }
        }
    }

    /// Ends the file: delivers a last record that has no line end, or throws if a quoted field is still open.
    mutating func finish(_ body: (CSVReadRecord, [[UInt8]]) -> Void) throws {
        if awaitingByteAfterFirstCarriageReturn {
            awaitingByteAfterFirstCarriageReturn = false
            lineEnding = "CR"
        }
        switch state {
        case .recordStart:
            return
        case .quoted:
            throw CSVError.unterminatedQuote(file: fileName, line: fieldLine)
        case .fieldStart, .unquoted, .quoteInQuoted:
            endField()
            endRecord(body)
            state = .recordStart
        }
    }

    /// Counts a line end (CR or LF) read outside quotes, and remembers the first kind seen.
    private mutating func endLine(with byte: UInt8) {
        line += 1
        if byte == ASCII.carriageReturn {
            previousByteWasCarriageReturn = true
            if lineEnding == nil { awaitingByteAfterFirstCarriageReturn = true }
        } else {
            previousByteWasCarriageReturn = false
            if lineEnding == nil { lineEnding = "LF" }
        }
    }

    /// Records a stray quote in the current field, once per field.
    private mutating func noteStrayQuote() {
        guard !fieldHasStrayQuote else { return }
        fieldHasStrayQuote = true
        problems.append(CSVFieldProblem(kind: .strayQuote, field: fieldEnds.count, line: line))
    }

    /// Closes the current field: checks its bytes are UTF-8 and records where it ends.
    private mutating func endField() {
        let start = fieldEnds.last ?? 0
        let end = bytes.count
        if fieldByteUnion >= 0x80, let problem = invalidUTF8Problem(from: start, to: end) {
            problems.append(problem)
        }
        fieldEnds.append(end)
        fieldHasStrayQuote = false
        fieldByteUnion = 0
    }

    /// The `.invalidUTF8` problem of the field in `bytes[start..<end]`, or `nil` when it is valid UTF-8.
    private func invalidUTF8Problem(from start: Int, to end: Int) -> CSVFieldProblem? {
        bytes.withUnsafeBufferPointer { buffer in
            let field = UnsafeBufferPointer(rebasing: buffer[start..<end])
            guard let offset = UTF8Validator.firstInvalidOffset(in: field) else { return nil }
            // Line ends inside a quoted field are kept as data, so counting them finds the bad byte's line.
            var problemLine = fieldLine
            var previous: UInt8 = 0
            for byte in field[..<offset] {
                if byte == ASCII.carriageReturn || (byte == ASCII.lineFeed && previous != ASCII.carriageReturn) {
                    problemLine += 1
                }
                previous = byte
            }
            return CSVFieldProblem(kind: .invalidUTF8, field: fieldEnds.count, line: problemLine)
        }
    }

    /// Hands the finished record to `body`, then empties the buffers (keeping their memory) for the next one.
    private mutating func endRecord(_ body: (CSVReadRecord, [[UInt8]]) -> Void) {
        defer {
            bytes.removeAll(keepingCapacity: true)
            fieldEnds.removeAll(keepingCapacity: true)
            problems.removeAll(keepingCapacity: true)
        }
        let lineCount = line - recordLine + 1
        var fields: [[UInt8]] = []
        var start = 0
        for end in fieldEnds {
            fields.append(Array(bytes[start..<end]))
            start = end
        }
        let record = CSVReadRecord(
            line: recordLine, lineCount: lineCount, fields: fields.map { String(decoding: $0, as: UTF8.self) },
            problems: problems)
        body(record, fields)
    }
}
