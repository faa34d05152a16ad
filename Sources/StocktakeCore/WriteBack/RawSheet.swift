/// Where every cell of a delimited text lies among its bytes, found in one pass, so that single cells can be read
/// and rewritten and every other byte copied as it was.
///
/// Records and cells are split exactly as `CSVTokenizer` splits them: CRLF, LF and lone CR end records outside
/// quotes, blank lines are skipped, a field starting with `"` is quoted (`""` inside stands for one quote) and
/// anything after its closing quote belongs to the same cell. The same pass finds the cells the reader reports as
/// damaged (a stray quote, bytes that are not UTF-8) and the first line end, so the text is split only once.
///
/// The cells are kept in one flat array of 32-bit offsets with one entry per cell plus one per record (compressed
/// sparse rows), not in an array per record; the text must be smaller than 4 GiB.
struct RawSheet {
    /// The whole text, byte-order mark included.
    let bytes: [UInt8]
    /// Record after record: the offset where each of its cells starts, then one past the record's end, as if one
    /// more cell started after a delimiter there. A cell ends one byte before the next entry.
    private var boundaries: [UInt32] = []
    /// For each record, the index in `boundaries` of its first entry; then the count of `boundaries`.
    private var firstBoundaries: [UInt32] = [0]
    /// The cells the reader reports as damaged, as `record << 32 | cell`, in order.
    private var damagedCells: [UInt64] = []
    /// The first line end outside quotes, as `CSVReader.lineEnding` names it: "CRLF", "LF" or "CR".
    private(set) var lineEnding: String?
    /// Whether the text ends inside a quoted cell, which the reader refuses.
    private(set) var endsInsideQuotes = false

    /// Splits `bytes` from `start` (past a byte-order mark) into records of cells separated by `delimiter`.
    ///
    /// A large text is split in `pieces` pieces on all cores (by default one per `bytesPerPiece`, a few per thread):
    /// each piece starts after a line break and is split as if a record started there, then checked against the
    /// piece before it, which must have ended exactly there (a line break inside quotes makes it end later); a piece
    /// that did not start where a record starts is split again from where the piece before it ended. The result is
    /// the same as one pass over the whole text.
    init(bytes: [UInt8], start: Int, delimiter: Delimiter, pieces: Int? = nil) {
        precondition(bytes.count < Int(UInt32.max), "a sheet of 4 GiB or more cannot be planned")
        self.bytes = bytes
        // A small text is split in one pass on the calling thread: pieces would cost more than they save.
        let threads = bytes.count < 2 * Self.bytesPerPiece ? 1 : Parallel.threads
        let wanted = pieces ?? (threads == 1 ? 1 : min(threads * 4, bytes.count / Self.bytesPerPiece))
        let split = bytes.withUnsafeBufferPointer { text in
            Self.split(text, from: start, delimiter: delimiter.rawValue, pieces: max(1, wanted))
        }
        if split.count == 1 {
            boundaries = split[0].boundaries
            firstBoundaries = split[0].firstBoundaries
            damagedCells = split[0].damagedCells
        } else {
            join(split)
        }
        lineEnding = split.lazy.compactMap(\.lineEnding).first
        endsInsideQuotes = split.contains(where: \.endsInsideQuotes)
    }

    /// The least a piece holds: a text of less than twice this is split in one pass, on one core.
    static let bytesPerPiece = 256 << 10

    /// The number of records; every record has at least one cell.
    var recordCount: Int { firstBoundaries.count - 1 }

    /// The number of cells of `record`.
    func cellCount(_ record: Int) -> Int {
        Int(firstBoundaries[record + 1] - firstBoundaries[record]) - 1
    }

    /// The byte range of one cell, quotes included, delimiters and line ends excluded.
    func cell(_ record: Int, _ cell: Int) -> Range<Int> {
        let index = Int(firstBoundaries[record]) + cell
        return Int(boundaries[index])..<Int(boundaries[index + 1]) - 1
    }

    /// The offset just after the record's last cell, where its line end (if any) starts.
    func end(_ record: Int) -> Int {
        Int(boundaries[Int(firstBoundaries[record + 1]) - 1]) - 1
    }

    /// Marks `cells` (as `record << 32 | cell`) to be passed by like damaged text although the reader delivers
    /// them whole: the formula cells of a worksheet, which an edit must leave as they are.
    mutating func leaveAlone(_ cells: [UInt64]) {
        guard !cells.isEmpty else { return }
        damagedCells = (damagedCells + cells).sorted()
    }

    /// Whether the reader reports the text of a cell as damaged (a stray quote, bytes that are not UTF-8).
    func isDamaged(_ record: Int, _ cell: Int) -> Bool {
        guard !damagedCells.isEmpty else { return false }
        let key = UInt64(record) << 32 | UInt64(cell)
        var low = 0
        var high = damagedCells.count
        while low < high {
            let middle = (low + high) / 2
            if damagedCells[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < damagedCells.count && damagedCells[low] == key
    }

    /// Calls `body` with the text of the cell at `range` of `text` (the sheet's bytes) as `CSVReader` delivers it:
    /// quotes removed, `""` made `"`, text after a closing quote kept. An unquoted cell is passed in place;
    /// a quoted one is unescaped into `scratch`.
    static func withText<Result>(
        _ range: Range<Int>, of text: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8],
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        guard let first = range.first, text[first] == ASCII.quote else {
            return body(UnsafeBufferPointer(rebasing: text[range]))
        }
        if scratch.count < range.count { scratch = Array(repeating: 0, count: range.count) }
        return scratch.withUnsafeMutableBufferPointer { buffer in
            let count = unescape(range, of: text, into: buffer.baseAddress!)
            return body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Writes the text of the quoted cell at `range` of `text` as the reader delivers it to `output`, which has room
    /// for `range.count` bytes; returns how many bytes it wrote.
    static func unescape(
        _ range: Range<Int>, of text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>
    )
        -> Int
    {
        var count = 0
        var index = range.lowerBound + 1
        var quoted = true
        while index < range.upperBound {
            let byte = text[index]
            index += 1
            if quoted && byte == ASCII.quote {
                guard index < range.upperBound && text[index] == ASCII.quote else {
                    quoted = false
                    continue
                }
                index += 1
            }
            output[count] = byte
            count += 1
        }
        return count
    }

    /// Where the cells of a sheet are unescaped one at a time, without an allocation per cell.
    final class TextBuffer {
        private var storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256)

        deinit { storage.deallocate() }

        /// The text of the cell at `range` of `text` as the reader delivers it: `text`'s own bytes for an unquoted
        /// cell, else bytes in this buffer, valid until the next call.
        func text(_ range: Range<Int>, of text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
            guard let first = range.first, text[first] == ASCII.quote else {
                return UnsafeBufferPointer(rebasing: text[range])
            }
            if storage.count < range.count {
                storage.deallocate()
                storage = .allocate(capacity: max(range.count, storage.count * 2))
            }
            let count = RawSheet.unescape(range, of: text, into: storage.baseAddress!)
            return UnsafeBufferPointer(rebasing: storage[0..<count])
        }
    }

    /// Appends `text` as one cell: as it is, or quoted with inner quotes doubled when it holds the delimiter, a
    /// quote or a line break.
    static func appendEncoded(_ text: UnsafeBufferPointer<UInt8>, delimiter: Delimiter, to output: inout [UInt8]) {
        let needsQuotes = text.contains { byte in
            byte == delimiter.rawValue || byte == ASCII.quote || byte == ASCII.carriageReturn
                || byte == ASCII.lineFeed
        }
        guard needsQuotes else {
            output.append(contentsOf: text)
            return
        }
        output.append(ASCII.quote)
        for byte in text {
            output.append(byte)
            if byte == ASCII.quote { output.append(ASCII.quote) }
        }
        output.append(ASCII.quote)
    }

    /// What one pass over a piece of the text finds: the piece's records, numbered from 0, as `RawSheet` keeps them.
    private struct Piece {
        var boundaries: [UInt32] = []
        var firstBoundaries: [UInt32] = [0]
        var damagedCells: [UInt64] = []
        var lineEnding: String?
        var endsInsideQuotes = false
        /// Where the pass ended: the first point between records at or past its limit.
        var stop = 0

        var recordCount: Int { firstBoundaries.count - 1 }
    }

    /// The pieces of the text from `start`, split on all cores, each starting where the one before it ended.
    private static func split(
        _ text: UnsafeBufferPointer<UInt8>, from start: Int, delimiter: UInt8, pieces wanted: Int
    ) -> [Piece] {
        // Each piece starts just after the first line break at or past its share of the text.
        var starts = [start]
        for piece in 1..<max(1, wanted) {
            var index = start + (text.count - start) * piece / wanted
            while index < text.count && text[index] != ASCII.lineFeed && text[index] != ASCII.carriageReturn {
                index += 1
            }
            if index < text.count && text[index] == ASCII.carriageReturn { index += 1 }
            if index < text.count && text[index] == ASCII.lineFeed { index += 1 }
            if index > starts[starts.count - 1] && index < text.count { starts.append(index) }
        }
        let limits = Array(starts.dropFirst()) + [text.count]
        if starts.count == 1 { return [split(text, from: start, upTo: text.count, delimiter: delimiter)] }
        let guesses = Parallel.chunked(starts.count, minimum: 1) { range in
            range.map { split(text, from: starts[$0], upTo: limits[$0], delimiter: delimiter) }
        }.flatMap { $0 }
        var pieces = [guesses[0]]
        for index in 1..<starts.count {
            let stop = pieces[pieces.count - 1].stop
            if stop == starts[index] {
                pieces.append(guesses[index])
            } else if stop < limits[index] {
                // The piece before ran past this one's start (a quoted line break): this one is split again.
                pieces.append(split(text, from: stop, upTo: limits[index], delimiter: delimiter))
            }
        }
        return pieces
    }

    /// Joins the pieces' records into this sheet's, copying them on all cores.
    private mutating func join(_ pieces: [Piece]) {
        var boundaryStarts: [Int] = [0]
        var recordStarts: [Int] = [0]
        for piece in pieces {
            boundaryStarts.append(boundaryStarts[boundaryStarts.count - 1] + piece.boundaries.count)
            recordStarts.append(recordStarts[recordStarts.count - 1] + piece.recordCount)
        }
        let boundaryCount = boundaryStarts[pieces.count]
        let recordCount = recordStarts[pieces.count]
        var firstBoundaries: [UInt32] = []
        boundaries = [UInt32](unsafeUninitializedCapacity: boundaryCount) { allBoundaries, initialized in
            firstBoundaries = [UInt32](unsafeUninitializedCapacity: recordCount + 1) { allFirsts, initializedFirsts in
                let boundaryTarget = DisjointWrites(allBoundaries)
                let firstTarget = DisjointWrites(allFirsts)
                firstTarget[0] = 0
                Parallel.perform(pieces.count) { index in
                    let piece = pieces[index]
                    let offset = UInt32(boundaryStarts[index])
                    piece.boundaries.withUnsafeBufferPointer { source in
                        guard let from = source.baseAddress, !source.isEmpty else { return }
                        (boundaryTarget.buffer.baseAddress! + boundaryStarts[index]).initialize(
                            from: from, count: source.count)
                    }
                    for record in 0..<piece.recordCount {
                        firstTarget[recordStarts[index] + record + 1] = piece.firstBoundaries[record + 1] + offset
                    }
                }
                initializedFirsts = recordCount + 1
            }
            initialized = boundaryCount
        }
        self.firstBoundaries = firstBoundaries
        damagedCells = []
        for (index, piece) in pieces.enumerated() {
            for cell in piece.damagedCells { damagedCells.append(cell + UInt64(recordStarts[index]) << 32) }
        }
    }

    /// One pass from `start`, where a record starts, to the first point between records at or past `limit`:
    /// records, cells, damaged cells and the first line end.
    private static func split(
        _ text: UnsafeBufferPointer<UInt8>, from start: Int, upTo limit: Int, delimiter: UInt8
    ) -> Piece {
        var piece = Piece()
        // Cells of inventory sheets average more than 8 bytes with their delimiter.
        piece.boundaries.reserveCapacity((limit - start) / 8 + 16)
        let count = text.count
        // The bytes that end a run of plain bytes outside quotes (all below 64): delimiter, CR, LF, and the quote,
        // which there is stray.
        let stops: UInt64 =
            1 << UInt64(delimiter) | 1 << UInt64(ASCII.carriageReturn) | 1 << UInt64(ASCII.lineFeed)
            | 1 << UInt64(ASCII.quote)
        let words = StopWords(delimiter: delimiter)
        let scratch = TextBuffer()
        var index = start
        while index < limit {
            let byte = text[index]
            if byte == ASCII.carriageReturn || byte == ASCII.lineFeed {
                if piece.lineEnding == nil { piece.lineEnding = lineEnding(text, at: index) }
                index += 1
                continue
            }
            let record = UInt64(piece.recordCount)
            var cell: UInt64 = 0
            while true {
                let cellStart = index
                piece.boundaries.append(UInt32(truncatingIfNeeded: cellStart))
                var union: UInt8 = 0
                var isDamaged = false
                var wasQuoted = false
                if index < count && text[index] == ASCII.quote {
                    wasQuoted = true
                    index += 1
                    var closed = false
                    while index < count {
                        let byte = text[index]
                        if byte == ASCII.quote {
                            if index + 1 < count && text[index + 1] == ASCII.quote {
                                index += 2
                                continue
                            }
                            index += 1
                            closed = true
                            break
                        }
                        union |= byte
                        index += 1
                    }
                    if !closed { piece.endsInsideQuotes = true }
                }
                let runStart = index
                var wordUnion: UInt64 = 0
                scan: while true {
                    // Eight bytes at a time up to the first byte that may end the run.
                    while index + 8 <= count {
                        let word = UInt64(
                            littleEndian: UnsafeRawPointer(text.baseAddress! + index).loadUnaligned(as: UInt64.self))
                        let found = words.stops(in: word)
                        guard found != 0 else {
                            wordUnion |= word
                            index += 8
                            continue
                        }
                        let plain = found.trailingZeroBitCount / 8
                        wordUnion |= word & ((1 &<< UInt64(plain * 8)) &- 1)
                        index += plain
                        break
                    }
                    guard index < count else { break }
                    let byte = text[index]
                    if byte < 64 && stops & (1 &<< UInt64(byte)) != 0 {
                        guard byte == ASCII.quote else { break scan }
                        isDamaged = true
                    }
                    union |= byte
                    index += 1
                }
                // Text after a closing quote is a stray quote too.
                if wasQuoted && index > runStart { isDamaged = true }
                if !isDamaged && (union >= 0x80 || wordUnion & StopWords.highBits != 0) {
                    isDamaged = UTF8Validator.firstInvalidOffset(in: scratch.text(cellStart..<index, of: text)) != nil
                }
                if isDamaged { piece.damagedCells.append(record << 32 | cell) }
                guard index < count && text[index] == delimiter else { break }
                index += 1
                cell += 1
            }
            piece.boundaries.append(UInt32(truncatingIfNeeded: index + 1))
            piece.firstBoundaries.append(UInt32(truncatingIfNeeded: piece.boundaries.count))
        }
        piece.stop = index
        return piece
    }

    /// Finds the bytes that end a run outside quotes (delimiter, CR, LF, quote) among eight bytes at once.
    private struct StopWords {
        static let lowBits: UInt64 = 0x0101_0101_0101_0101
        static let highBits: UInt64 = 0x8080_8080_8080_8080
        let delimiter: UInt64
        let carriageReturn = lowBits &* UInt64(ASCII.carriageReturn)
        let lineFeed = lowBits &* UInt64(ASCII.lineFeed)
        let quote = lowBits &* UInt64(ASCII.quote)

        init(delimiter: UInt8) {
            self.delimiter = Self.lowBits &* UInt64(delimiter)
        }

        /// A word whose lowest set bit is the top bit of the first stop byte of `word` (read little-endian); 0
        /// when it holds none. Bits above the first stop byte may be set falsely.
        func stops(in word: UInt64) -> UInt64 {
            Self.zeroBytes(word ^ delimiter) | Self.zeroBytes(word ^ carriageReturn) | Self.zeroBytes(word ^ lineFeed)
                | Self.zeroBytes(word ^ quote)
        }

        /// The top bit of each zero byte of `word`, exact up to the first one.
        private static func zeroBytes(_ word: UInt64) -> UInt64 {
            (word &- lowBits) & ~word & highBits
        }
    }

    /// The kind of the line end outside quotes that starts at `index`, as `CSVReader.lineEnding` names it.
    private static func lineEnding(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> String {
        if text[index] == ASCII.lineFeed { return "LF" }
        return index + 1 < text.count && text[index + 1] == ASCII.lineFeed ? "CRLF" : "CR"
    }
}
