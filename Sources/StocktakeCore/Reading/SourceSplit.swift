/// A source file cut at line breaks into parts that are read at the same time, then joined into exactly what one
/// pass over the whole file gives.
///
/// Each part after the first starts right after a line break past the header and is read as if a record started
/// there. That guess is checked, not trusted: the part before it, read with its true state, stops at its first
/// record boundary at or after the next part's start. When that boundary is the start, the tokenizer is in the
/// same state there in one pass as in the part's own read (between records, line ends complete), so the part's
/// records are the ones one pass would give. When it is not (the start fell inside a quoted field that holds a
/// line break), the part is read again from the true boundary. Row numbers, lines and record indices are then
/// shifted, and rows repeated across parts are found by looking up each part's rows in the table of the rows
/// before it, so the first occurrence in the file wins.
struct SourceSplit {
    /// One part read: its rows numbered from 1 and its lines counted from 1 at its start.
    struct Part {
        var data: SourceData
        var fingerprints: FingerprintTable
        /// The fingerprint of each kept record, for the join.
        var recordFingerprints: [RowFingerprint]
        /// The record boundary where the part stopped, at or after the next part's start; `nil` at the end.
        var stoppedAt: Int?
        /// The 1-based line, counted from the part's start, where it stopped or ended.
        var endLine: Int
        /// What stopped the read of the part, if anything.
        var error: CSVError?
        /// Why a file that is not text (a workbook) could not be read.
        var failure: StocktakeError?
    }

    let file: SourceFile
    let reader: SourceReader
    /// Where the bytes are, and the name messages use.
    private let input: CSVReader.Input
    /// The rows of the file, counted by the readers of all its parts.
    private let sourceRows: RowBudget
    private let name: String
    private let chunkSize: Int
    /// The size of the text, 0 when unknown.
    let size: Int
    /// The offset each part starts at; the first is 0.
    private(set) var starts: [Int] = [0]
    /// Whether the file is text, read in parts, or a workbook, read whole by the source reader.
    private var format = SourceFormat.text
    /// The delimiter and the header layout found by reading the start of the file, when it is split.
    private var delimiter = Delimiter.comma
    private var layout: HeaderLayout?
    /// Whether the whole text was found to be (or is set to be read as) UTF-8 while looking for the header, so the
    /// first part's reader need not check it again. Text in another encoding is converted as it is read, so its
    /// offsets are not the file's: it is never split.
    private var foundUTF8 = false

    /// Plans to read `file` in parts of about `partSize` bytes (one part when it is smaller, has no header, or is not
    /// text: a workbook is read whole).
    init(file: SourceFile, reader: SourceReader, partSize: Int) {
        self.init(
            file: file, reader: reader, input: .file(path: file.path), name: file.path,
            size: ByteSource.size(of: file.path) ?? 0, chunkSize: CSVReader.defaultChunkSize)
        format = SourceFormat.of(path: file.path)
        guard format == .text, partSize > 0, size > partSize, let header = findHeader() else { return }
        let count = (size + partSize - 1) / partSize
        for index in 1..<count {
            guard let start = lineStart(atOrAfter: max(size / count * index, header + 1)) else { continue }
            add(start)
        }
    }

    /// Plans to read text in memory named `name` in parts starting at `cuts` (those past the header, in order),
    /// each moved to just after the next line break when `atLineBreaks`. Tests cut it everywhere this way.
    init(
        file: SourceFile, reader: SourceReader, bytes: [UInt8], name: String, cuts: [Int], atLineBreaks: Bool,
        chunkSize: Int
    ) {
        self.init(
            file: file, reader: reader, input: .memory(bytes), name: name, size: bytes.count, chunkSize: chunkSize)
        guard let header = findHeader() else { return }
        for cut in cuts.sorted() where cut > header {
            guard let start = atLineBreaks ? lineStart(atOrAfter: cut) : cut else { continue }
            add(start)
        }
    }

    private init(
        file: SourceFile, reader: SourceReader, input: CSVReader.Input, name: String, size: Int, chunkSize: Int
    ) {
        self.file = file
        self.reader = reader
        self.input = input
        self.name = name
        self.size = size
        self.chunkSize = chunkSize
        sourceRows = RowBudget(limit: reader.limits.maxRows)
    }

    /// Adds a part starting at `start`, unless it does not start after the last part or is at the end.
    private mutating func add(_ start: Int) {
        if start > starts.last!, start < size { starts.append(start) }
    }

    /// How many parts the file is read in.
    var partCount: Int { starts.count }

    /// The reader of the whole text, or of the part that starts at `start` and stops at `stop`.
    private func csvReader(from start: Int, stoppingAt stop: Int) throws(CSVError) -> CSVReader {
        var reader: CSVReader
        if start == 0 {
            switch input {
            case .file(let path):
                reader = try CSVReader(path: path, delimiter: nil, stoppingAt: stop, chunkSize: chunkSize)
            case .memory(let bytes):
                reader = CSVReader(bytes: bytes, name: name, delimiter: nil, stoppingAt: stop, chunkSize: chunkSize)
            }
            reader.requiredEncoding = foundUTF8 ? .utf8 : file.encoding
        } else {
            reader = CSVReader(
                part: input, name: name, delimiter: delimiter, from: start, stoppingAt: stop, chunkSize: chunkSize)
        }
        reader.limits = self.reader.limits
        return reader
    }

    /// Reads the start of the text up to its header: remembers the delimiter and the layout, and returns the
    /// offset of the line end that ends the header, or `nil` when there is none (or the text cannot be read, which
    /// the read of the first part then reports).
    private mutating func findHeader() -> Int? {
        // Parts shift record indices and apply no issue limit, so only reading that keeps everything is split.
        guard reader.keepsRecords, reader.issueLimit == Int.max else { return nil }
        struct Found: Error {}
        var end: Int?
        var header: [String] = []
        guard var csv = try? csvReader(from: 0, stoppingAt: Int.max) else { return nil }
        // The files are planned before any is read, so the other cores are free to check the encoding with this one.
        csv.encodingCheckParts = Parallel.threads
        do {
            try csv.forEachRecord { record in
                guard !ReadState.isEmpty(record, from: 0) else { return }
                header = record.strings
                end = record.end
                throw Found()
            }
        } catch {}
        guard let end, end < size, csv.encoding == .utf8 else { return nil }
        foundUTF8 = true
        delimiter = csv.delimiter
        layout = HeaderLayout(header: header, mapping: reader.mapping)
        return end
    }

    /// The offset just after the first line break (LF, CR or CRLF) at or after `offset`, looking at most 64 KiB
    /// ahead; `nil` when there is none there.
    private func lineStart(atOrAfter offset: Int) -> Int? {
        let window: [UInt8]
        switch input {
        case .memory(let bytes):
            window = Array(bytes[min(offset, bytes.count)..<min(offset + 65_536, bytes.count)])
        case .file(let path):
            guard var source = try? ByteSource(path: path, name: path, offset: offset) else { return nil }
            defer { source.finish() }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = buffer.withUnsafeMutableBufferPointer { (try? source.nextChunk(into: $0)) ?? 0 }
            window = Array(buffer[0..<count])
        }
        for index in window.indices.dropLast() {
            if window[index] == ASCII.lineFeed { return offset + index + 1 }
            if window[index] == ASCII.carriageReturn {
                return offset + index + (window[index + 1] == ASCII.lineFeed ? 2 : 1)
            }
        }
        return nil
    }

    /// Reads part `index` on its own.
    func readPart(_ index: Int) -> Part {
        guard format == .text else { return readWhole() }
        return readPart(from: starts[index], stoppingAt: index + 1 < starts.count ? starts[index + 1] : Int.max)
    }

    /// Reads from `start`, a record boundary (or the text's start), to the first record boundary at or after `stop`.
    private func readPart(from start: Int, stoppingAt stop: Int) -> Part {
        var state: ReadState
        if start == 0 {
            state = ReadState(file: file, reader: reader, expectedBytes: size, sourceRows: sourceRows)
        } else {
            state = ReadState(
                part: file, reader: reader, layout: layout!, startOffset: start,
                expectedBytes: min(stop, size) - start, sourceRows: sourceRows)
        }
        var error: CSVError?
        var csv: CSVReader?
        do {
            var opened = try csvReader(from: start, stoppingAt: stop)
            try opened.forEachRecord { record in try state.take(record) }
            try state.finish()
            csv = opened
        } catch let failure as CSVError {
            error = failure
        } catch {
            preconditionFailure("reading records throws nothing but CSVError: \(error)")
        }
        state.data.delimiter = csv?.delimiter ?? delimiter
        state.data.hadByteOrderMark = csv?.hadByteOrderMark ?? false
        state.data.encoding = csv?.encoding ?? .utf8
        state.data.lineEnding = csv?.lineEnding
        return Part(
            data: state.data, fingerprints: state.fingerprints, recordFingerprints: state.recordFingerprints ?? [],
            stoppedAt: csv?.stoppedAt, endLine: csv?.endLine ?? 1, error: error)
    }

    /// Reads a file that is not text (a workbook, or a file refused for its format) as one part.
    private func readWhole() -> Part {
        var part = Self.emptyPart(file)
        do throws(StocktakeError) {
            part.data = try reader.read(file)
        } catch {
            part.failure = error
        }
        return part
    }

    /// Joins the parts, read in order of `starts`, into what one pass over the file gives; reads again a part whose
    /// start turned out not to be a record boundary.
    func join(_ parts: consuming [Part]) throws(StocktakeError) -> SourceData {
        if let failure = parts[0].failure { throw failure }
        if let error = parts[0].error { throw SourceReader.translate(error, file: file) }
        // Each part is moved out of `parts` so that its memory goes as soon as it is joined, and the first part's
        // records are appended to without a copy.
        var data = parts[0].data
        var table = parts[0].fingerprints
        var stop = parts[0].stoppedAt
        // The line, in the file, where the next part starts.
        var line = parts[0].endLine
        parts[0] = Self.emptyPart(file)
        // Room for the rows of all parts, made once: growing part by part would copy the rows read so far each time.
        let rowCount = (1..<parts.count).reduce(data.records.count) { $0 + parts[$1].data.records.count }
        data.records.reserveCapacity(rowCount)
        table.reserve(rowCount)
        var index = 1
        while index < parts.count, let boundary = stop {
            var part = parts[index]
            parts[index] = Self.emptyPart(file)
            if starts[index] != boundary {
                // The part is read again from the right place: its rows were counted, and are counted again.
                sourceRows.remove(part.data.rowCount)
                reader.accountRows?.remove(part.data.rowCount)
                part = readPart(from: boundary, stoppingAt: index + 1 < starts.count ? starts[index + 1] : Int.max)
            }
            if let error = part.error {
                throw SourceReader.translate(error.shiftingLines(by: line - 1), file: file)
            }
            Self.append(part, to: &data, table: &table, lineOffset: line - 1)
            data.lineEnding = data.lineEnding ?? part.data.lineEnding
            stop = part.stoppedAt
            line += part.endLine - 1
            index += 1
        }
        return data
    }

    /// A part that holds nothing, left in the place of a part that was joined.
    private static func emptyPart(_ file: SourceFile) -> Part {
        Part(
            data: SourceData(file: file, layout: HeaderLayout(header: [], mapping: .builtIn)),
            fingerprints: FingerprintTable(), recordFingerprints: [], stoppedAt: nil, endLine: 1, error: nil)
    }

    /// Adds a part's rows after those of `data`, whose repeatable rows are in `table`.
    private static func append(
        _ part: Part, to data: inout SourceData, table: inout FingerprintTable, lineOffset: Int
    ) {
        let rowOffset = data.rowCount
        // The global index of each record of the part; -1 for one that repeats a row of an earlier part.
        var globalIndex = [Int](repeating: -1, count: part.data.records.count)
        // The first occurrence, in an earlier part, of each record that repeats one.
        var earlier: [Int: (record: Int32, row: Int32)] = [:]
        var repeatedAcross: [SourceData.RepeatedRow] = []
        data.records.reserveCapacity(data.records.count + part.data.records.count)
        let records = part.data.records.view
        // The table holds every row before the part's (millions, far larger than the caches): a row's slot is
        // fetched a few rows ahead, so that the lookups wait for memory together.
        let prefetching = table.count >= ReadState.rowsTakenAtOnce
        for local in 0..<records.count {
            if prefetching, local + Prefetch.keysAhead < records.count {
                table.prefetch(part.recordFingerprints[local + Prefetch.keysAhead])
            }
            let row = Int(records.row(at: local)) + rowOffset
            let line = Int(records.line(at: local)) + lineOffset
            let fingerprint = part.recordFingerprints[local]
            let place = table.place(of: fingerprint)
            if let first = place.first {
                let firstRow = data.records.view.row(at: Int(first))
                earlier[local] = (first, firstRow)
                repeatedAcross.append(
                    .init(row: row, line: line, firstRecordIndex: Int(first), firstRow: Int(firstRow)))
                continue
            }
            globalIndex[local] = data.records.count
            table.insert(fingerprint, occurrence: Int32(data.records.count), at: place)
            data.records.append(local, of: records, row: Int32(clamping: row), line: Int32(clamping: line))
        }
        for var issue in part.data.issues {
            if let local = issue.recordIndex {
                guard earlier[local] == nil else { continue }
                issue.recordIndex = globalIndex[local]
            }
            issue.row += rowOffset
            issue.line += lineOffset
            data.issues.append(issue)
        }
        var repeated = part.data.repeatedRows.map { local in
            var row = local
            row.row += rowOffset
            row.line += lineOffset
            if let first = earlier[local.firstRecordIndex] {
                row.firstRecordIndex = Int(first.record)
                row.firstRow = Int(first.row)
            } else {
                row.firstRecordIndex = globalIndex[local.firstRecordIndex]
                row.firstRow += rowOffset
            }
            return row
        }
        if !repeatedAcross.isEmpty {
            repeated = (repeated + repeatedAcross).sorted { $0.row < $1.row }
        }
        data.repeatedRows += repeated
        data.rowCount += part.data.rowCount
    }
}
