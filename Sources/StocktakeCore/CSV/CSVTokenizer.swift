/// The byte-level state machine that splits delimited text into records, fed one chunk at a time.
///
/// Chunks may end anywhere (inside quotes, between CR and LF, inside a UTF-8 sequence): all state lives in the
/// tokenizer, not in the chunk. A field is handed out as a slice of the chunk it was read from, without copying;
/// only a field whose text is not one run of the chunk (a `""` escape, text after a closing quote) and the fields
/// of the one record a chunk ends in are copied, into a spill buffer reused from record to record.
///
/// It cannot be copied: it owns the memory its record's fields are listed in.
struct CSVTokenizer: ~Copyable {
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

    /// The bytes that end a run of plain bytes inside a quoted field (quote, CR, LF, and NUL, which text never
    /// holds), as bits of a mask. All special bytes are below 64, so one bit test per byte finds them, and letters
    /// fail the `< 64` test first.
    private static let quotedStops: UInt64 =
        1 << UInt64(ASCII.quote) | 1 << UInt64(ASCII.carriageReturn) | 1 << UInt64(ASCII.lineFeed) | 1

    /// The field separator byte.
    private let delimiter: UInt8
    /// The delimiter in each byte of a word, to find it eight bytes at a time.
    private let delimiterWord: UInt64
    /// A quote, a CR and an LF in each byte of a word.
    private static let quoteWord = 0x0101_0101_0101_0101 &* UInt64(ASCII.quote)
    private static let carriageReturnWord = 0x0101_0101_0101_0101 &* UInt64(ASCII.carriageReturn)
    private static let lineFeedWord = 0x0101_0101_0101_0101 &* UInt64(ASCII.lineFeed)
    /// The bytes that end a run of plain bytes outside quotes: those of `quotedStops` plus the delimiter.
    private let unquotedStops: UInt64
    /// The file name used in errors.
    private let fileName: String
    /// The most bytes a field may hold, fields a record may hold, and bytes a record may span (see `ReadLimits`).
    private let maxFieldBytes: Int
    private let maxColumns: Int
    private let maxRecordBytes: Int
    /// Where the tokenizer is; kept between chunks.
    private var state = State.recordStart
    /// 1-based physical line of the byte being read.
    private(set) var line = 1
    /// Whether the last byte read was a CR, so that a following LF completes a CRLF rather than a new line end.
    private var previousByteWasCarriageReturn = false
    /// Whether the first line end outside quotes was a CR whose successor (LF or not) is still unknown.
    private var awaitingByteAfterFirstCarriageReturn = false
    /// 1-based physical line where the current record started.
    private var recordLine = 1
    /// Offset in the text of the current record's first byte.
    private var recordStart = 0
    /// 1-based physical line where the current field started (for a quoted field, where its quote opened).
    private var fieldLine = 1
    /// Whether a stray quote was already reported for the current field (it is reported once per field).
    private var fieldHasStrayQuote = false
    /// Whether a field of the current record opened with a quote: its fields are then not one run of the text.
    private var recordHasQuotedField = false
    /// 0x80 once a byte of the current field with its top bit set is seen, else 0: a field without one is ASCII, and
    /// needs no UTF-8 check.
    private var fieldTopBit: UInt8 = 0
    /// Whether the current field's text so far is the chunk's bytes `sliceStart..<sliceEnd`; otherwise it is in
    /// `spill` from `spillFieldStart` on.
    private var fieldIsSliced = true
    private var sliceStart = 0
    private var sliceEnd = 0
    private var spillFieldStart = 0
    /// The finished fields of the current record (slices of the chunk, or `spilledField` placeholders): the first
    /// `fieldCount` of the `fieldCapacity` at `fieldSlots`. They are kept by hand, not in an array: a field is stored
    /// without an array's uniqueness and capacity checks, and a record's fields are dropped by setting the count to 0.
    /// A file has millions of fields.
    private var fieldSlots: UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>
    private var fieldCapacity = 64
    private var fieldCount = 0
    /// The fields of the current record that live in `spill`: their index and their bytes in `spill`.
    private var spilledFields: [(field: Int, start: Int, end: Int)] = []
    /// Copied field bytes of the current record.
    private var spill: [UInt8] = []
    /// Problems found so far in the current record.
    private var problems: [CSVFieldProblem] = []
    /// The first line end seen outside quotes: "CRLF", "LF" or "CR"; `nil` until one is seen.
    private(set) var lineEnding: String?
    /// Reading stops at the first record start at or after this offset of the text (see `stoppedAt`).
    var stopOffset = Int.max
    /// Where reading stopped because it reached `stopOffset`: the offset of the first byte after the last record,
    /// at a record boundary; `nil` while it has not stopped.
    private(set) var stoppedAt: Int?

    /// The placeholder of a field whose bytes are in `spill` until the record is delivered.
    private static var spilledField: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: nil, count: 0) }

    /// Creates a tokenizer splitting fields on `delimiter`, refusing text beyond `limits`; `fileName` names the file
    /// in errors.
    init(delimiter: Delimiter, fileName: String, limits: ReadLimits = ReadLimits()) {
        self.delimiter = delimiter.rawValue
        delimiterWord = 0x0101_0101_0101_0101 &* UInt64(delimiter.rawValue)
        unquotedStops = CSVTokenizer.quotedStops | 1 << UInt64(delimiter.rawValue)
        self.fileName = fileName
        maxFieldBytes = limits.maxFieldBytes
        maxColumns = limits.maxColumns
        maxRecordBytes = limits.maxRowBytes
        spill.reserveCapacity(4096)
        fieldSlots = .allocate(capacity: fieldCapacity)
    }

    deinit {
        fieldSlots.deallocate()
    }

    /// Parses the next chunk of the text, which starts at `offset` in it, calling `body` with each record
    /// completed in it. Returns `false` when it stopped at `stopOffset`; nothing more may be consumed then.
    ///
    /// Throws `CSVError` for a NUL byte and for a field, record or number of fields beyond the limits, before the
    /// bytes beyond a limit are copied anywhere.
    mutating func consume(
        _ chunk: UnsafeBufferPointer<UInt8>, at offset: Int = 0, _ body: (borrowing CSVRecord) throws -> Void
    ) throws -> Bool {
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
                    continue
                }
                if offset + index >= stopOffset {
                    stoppedAt = offset + index
                    return false
                }
                if byte == ASCII.carriageReturn || byte == ASCII.lineFeed {
                    endLine(with: byte)
                    index += 1
                } else {
                    previousByteWasCarriageReturn = false
                    recordLine = line
                    recordStart = offset + index
                    state = .fieldStart
                }
            case .fieldStart:
                fieldLine = line
                fieldIsSliced = true
                if chunk[index] == ASCII.quote {
                    state = .quoted
                    recordHasQuotedField = true
                    index += 1
                } else {
                    state = .unquoted
                }
                sliceStart = index
                sliceEnd = index
            case .unquoted:
                // Unquoted fields follow one another in this loop, not through the `switch` for each: going back to
                // it cost an indirect jump per field.
                unquoted: while true {
                    let runStart = index
                    index = Self.scan(
                        chunk, from: index, stops: unquotedStops, delimiterWord: delimiterWord,
                        topBit: &fieldTopBit)
                    if index > runStart { try append(chunk, runStart, index) }
                    guard index < count else { break unquoted }
                    let byte = chunk[index]
                    index += 1
                    if byte == delimiter {
                        endField(chunk)
                        if fieldCount >= maxColumns {
                            throw CSVError.tooManyColumns(file: fileName, line: recordLine, limit: maxColumns)
                        }
                        // Most fields are not quoted: the next one starts here, without a pass through `.fieldStart`.
                        guard index < count && chunk[index] != ASCII.quote else {
                            state = .fieldStart
                            break unquoted
                        }
                        fieldLine = line
                        fieldIsSliced = true
                        sliceStart = index
                        sliceEnd = index
                    } else if byte == ASCII.quote {
                        noteStrayQuote()
                        try append(chunk, index - 1, index)
                    } else if byte == 0 {
                        throw CSVError.binaryContent(file: fileName, line: line)
                    } else {
                        endField(chunk)
                        try endRecord(at: offset + index - 1, body)
                        state = .recordStart
                        endLine(with: byte)
                        break unquoted
                    }
                }
            case .quoted:
                let runStart = index
                index = Self.scan(
                    chunk, from: index, stops: CSVTokenizer.quotedStops, delimiterWord: Self.quoteWord,
                    topBit: &fieldTopBit)
                if index > runStart {
                    try append(chunk, runStart, index)
                    previousByteWasCarriageReturn = false
                }
                guard index < count else { continue }
                let byte = chunk[index]
                index += 1
                if byte == ASCII.quote {
                    previousByteWasCarriageReturn = false
                    state = .quoteInQuoted
                } else if byte == 0 {
                    throw CSVError.binaryContent(file: fileName, line: line)
                } else {
                    try append(chunk, index - 1, index)
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
                    // The first quote of the pair is the field's byte: in this chunk just before, or in an earlier one.
                    if index > 0 {
                        try append(chunk, index - 1, index)
                    } else {
                        try checkFieldLength(adding: 1)
                        spillCurrentField(chunk)
                        spill.append(byte)
                    }
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
        try spillRecord(chunk, endingAt: offset + count)
        return true
    }

    /// The offset of the first byte of `stops` in `chunk` at or after `start`, or the chunk's end when there is none;
    /// `topBit` gets its top bit set when a byte before it has its top bit set (is not ASCII).
    ///
    /// Eight bytes are looked at together while they can be: a byte of the word is one of `stops` when it is a
    /// quote, CR, LF, NUL, or the byte repeated in `delimiterWord` (the delimiter, or a quote again inside quotes).
    @inline(__always)
    private static func scan(
        _ chunk: UnsafeBufferPointer<UInt8>, from start: Int, stops: UInt64, delimiterWord: UInt64,
        topBit: inout UInt8
    ) -> Int {
        var index = start
        let count = chunk.count
        var seen: UInt64 = 0
        if let base = chunk.baseAddress {
            let raw = UnsafeRawPointer(base)
            // `index` and `count` are offsets in one chunk: adding 8 never overflows.
            while index &+ 8 <= count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let found =
                    Self.zeroBytes(word) | Self.zeroBytes(word ^ delimiterWord) | Self.zeroBytes(word ^ Self.quoteWord)
                    | Self.zeroBytes(word ^ Self.carriageReturnWord) | Self.zeroBytes(word ^ Self.lineFeedWord)
                if found != 0 {
                    // The bytes below the first stop: its flag is bit 7 of its byte, so the mask ends below that byte.
                    let stop = found.trailingZeroBitCount &>> 3
                    seen |= word & ((1 &<< UInt64(stop &* 8)) &- 1)
                    topBit |= Self.topBitFlag(of: seen)
                    return index &+ stop
                }
                seen |= word
                index &+= 8
            }
        }
        while index < count {
            let byte = chunk[index]
            if byte < 64 && stops & (1 &<< byte) != 0 { break }
            seen |= UInt64(byte)
            index += 1
        }
        topBit |= Self.topBitFlag(of: seen)
        return index
    }

    /// 0x80 when a byte of `word` has its top bit set, else 0.
    @inline(__always)
    private static func topBitFlag(of word: UInt64) -> UInt8 {
        word & 0x8080_8080_8080_8080 != 0 ? 0x80 : 0
    }

    /// The high bit of each byte of `word` that is zero, and perhaps of bytes above one that is: its lowest set bit
    /// is always that of the first zero byte.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// Ends the text, which is `length` bytes long: delivers a last record that has no line end, or throws if a
    /// quoted field is still open.
    mutating func finish(at length: Int = 0, _ body: (borrowing CSVRecord) throws -> Void) throws {
        if awaitingByteAfterFirstCarriageReturn {
            awaitingByteAfterFirstCarriageReturn = false
            lineEnding = "CR"
        }
        switch state {
        case .recordStart:
            return
        case .quoted:
            throw CSVError.unterminatedQuote(file: fileName, line: fieldLine)
        case .fieldStart:
            fieldIsSliced = false
            spillFieldStart = spill.count
            endField(UnsafeBufferPointer(start: nil, count: 0))
            try endRecord(at: length, body)
            state = .recordStart
        case .unquoted, .quoteInQuoted:
            endField(UnsafeBufferPointer(start: nil, count: 0))
            try endRecord(at: length, body)
            state = .recordStart
        }
    }

    /// Adds `chunk[start..<end]` to the current field: it stays a slice when it continues the field's slice.
    /// Throws, copying nothing, when the field would grow past `maxFieldBytes`.
    @inline(__always)
    private mutating func append(_ chunk: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(CSVError) {
        if fieldIsSliced && sliceEnd == start {
            sliceEnd = end
            if end - sliceStart > maxFieldBytes { throw fieldTooLong() }
            return
        }
        try checkFieldLength(adding: end - start)
        spillCurrentField(chunk)
        spill.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<end]))
    }

    /// Throws when adding `count` bytes to the current field would make it longer than `maxFieldBytes`.
    private func checkFieldLength(adding count: Int) throws(CSVError) {
        let length = fieldIsSliced ? sliceEnd - sliceStart : spill.count - spillFieldStart
        if length + count > maxFieldBytes { throw fieldTooLong() }
    }

    /// The error for the current field, which is longer than `maxFieldBytes`.
    private func fieldTooLong() -> CSVError {
        .fieldTooLong(file: fileName, line: recordLine, column: fieldCount + 1, limit: maxFieldBytes)
    }

    /// Copies the current field's slice into `spill`, where the rest of its bytes will go.
    private mutating func spillCurrentField(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard fieldIsSliced else { return }
        fieldIsSliced = false
        spillFieldStart = spill.count
        if sliceEnd > sliceStart {
            spill.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[sliceStart..<sliceEnd]))
        }
    }

    /// At the end of a chunk, which ends at offset `end` of the text, copies the sliced fields of the record it ends
    /// in, since the chunk's memory is reused; throws when that record is already longer than `maxRecordBytes`.
    private mutating func spillRecord(_ chunk: UnsafeBufferPointer<UInt8>, endingAt end: Int) throws(CSVError) {
        let inField: Bool
        switch state {
        case .unquoted, .quoted, .quoteInQuoted: inField = true
        case .recordStart: return
        case .fieldStart: inField = false
        }
        if end - recordStart > maxRecordBytes {
            throw .rowTooLong(file: fileName, line: recordLine, limit: maxRecordBytes)
        }
        // The field being read must stay last in `spill`, where its next bytes go.
        var current: [UInt8]?
        if inField && !fieldIsSliced && (0..<fieldCount).contains(where: { fieldSlots[$0].baseAddress != nil }) {
            current = Array(spill[spillFieldStart...])
            spill.removeSubrange(spillFieldStart...)
        }
        for index in 0..<fieldCount where fieldSlots[index].baseAddress != nil {
            let start = spill.count
            spill.append(contentsOf: fieldSlots[index])
            spilledFields.append((index, start, spill.count))
            fieldSlots[index] = Self.spilledField
        }
        guard inField else { return }
        if fieldIsSliced {
            spillCurrentField(chunk)
        } else if let current {
            spillFieldStart = spill.count
            spill.append(contentsOf: current)
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
        problems.append(CSVFieldProblem(kind: .strayQuote, field: fieldCount, line: line))
    }

    /// Adds a finished field to the record's, making room for twice as many when they are full.
    @inline(__always)
    private mutating func appendField(_ field: UnsafeBufferPointer<UInt8>) {
        if fieldCount == fieldCapacity {
            let larger = UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>.allocate(capacity: fieldCapacity * 2)
            larger.moveInitialize(from: fieldSlots, count: fieldCount)
            fieldSlots.deallocate()
            fieldSlots = larger
            fieldCapacity *= 2
        }
        fieldSlots[fieldCount] = field
        fieldCount += 1
    }

    /// Closes the current field: checks its bytes are UTF-8 and records where they are.
    @inline(__always)
    private mutating func endField(_ chunk: UnsafeBufferPointer<UInt8>) {
        if fieldIsSliced {
            let field = UnsafeBufferPointer(rebasing: chunk[sliceStart..<sliceEnd])
            if fieldTopBit >= 0x80, let problem = invalidUTF8Problem(in: field) { problems.append(problem) }
            appendField(field)
        } else {
            let start = spillFieldStart
            let end = spill.count
            if fieldTopBit >= 0x80 {
                let problem = spill.withUnsafeBufferPointer {
                    invalidUTF8Problem(in: UnsafeBufferPointer(rebasing: $0[start..<end]))
                }
                if let problem { problems.append(problem) }
            }
            spilledFields.append((fieldCount, start, end))
            appendField(Self.spilledField)
        }
        fieldHasStrayQuote = false
        fieldTopBit = 0
    }

    /// The `.invalidUTF8` problem of the current field, whose bytes are `field`, or `nil` when it is valid UTF-8.
    private func invalidUTF8Problem(in field: UnsafeBufferPointer<UInt8>) -> CSVFieldProblem? {
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
        return CSVFieldProblem(kind: .invalidUTF8, field: fieldCount, line: problemLine)
    }

    /// Hands the finished record, which ended at `end` in the text, to `body`, then empties the buffers (keeping
    /// their memory) for the next one.
    private mutating func endRecord(at end: Int, _ body: (borrowing CSVRecord) throws -> Void) throws {
        if end - recordStart > maxRecordBytes {
            throw CSVError.rowTooLong(file: fileName, line: recordLine, limit: maxRecordBytes)
        }
        defer {
            // Nearly every record leaves only fields behind; emptying an empty array still costs a call.
            fieldCount = 0
            recordHasQuotedField = false
            if !spilledFields.isEmpty { spilledFields.removeAll(keepingCapacity: true) }
            if !spill.isEmpty { spill.removeAll(keepingCapacity: true) }
            if !problems.isEmpty { problems.removeAll(keepingCapacity: true) }
        }
        let lineCount = line - recordLine + 1
        // Fields read from the chunk, none quoted, lie one after another with a delimiter between each two: the text
        // from the first field's start to the last one's end is the record's, as its file has it.
        var run: CSVRecord.Run?
        if !recordHasQuotedField && spilledFields.isEmpty && fieldCount > 0,
            let start = fieldSlots[0].baseAddress, let last = fieldSlots[fieldCount - 1].baseAddress
        {
            let bytes = UnsafeBufferPointer(start: start, count: last + fieldSlots[fieldCount - 1].count - start)
            run = CSVRecord.Run(bytes: bytes, delimiter: delimiter)
        }
        try spill.withUnsafeBufferPointer { spillBuffer in
            for spilled in spilledFields {
                fieldSlots[spilled.field] = UnsafeBufferPointer(rebasing: spillBuffer[spilled.start..<spilled.end])
            }
            let record = CSVRecord(
                line: recordLine, lineCount: lineCount,
                fields: UnsafeBufferPointer(start: fieldSlots, count: fieldCount),
                problems: problems, end: end, run: run, mayHoldNUL: false)
            try body(record)
        }
    }
}
