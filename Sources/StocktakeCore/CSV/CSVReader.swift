/// Streaming reader of CSV and TSV files (RFC 4180 plus what real spreadsheet exports do).
///
/// The file is read in fixed-size chunks with `read(2)` and parsed in one pass, so memory use does not grow with
/// the file: a 1 GB export needs about one chunk plus the largest record. Quoted fields may hold delimiters and
/// line breaks; CRLF, LF and lone CR all end records, even mixed in one file; blank lines are skipped.
///
/// The encoding is decided once, before any field is split (see `encoding`): a UTF-8 byte-order mark is skipped;
/// UTF-16 with a byte-order mark, and text that is not valid UTF-8 from start to end and has no byte-order mark
/// (read as Windows-1252), are converted to UTF-8 chunk by chunk as they are read; UTF-32, and UTF-16 without a
/// byte-order mark, are refused. Problems inside a field (stray quotes, invalid UTF-8 after a UTF-8 byte-order mark
/// or when UTF-8 is required) are reported on the record and do not stop reading; problems with the whole file
/// throw `CSVError`.
public struct CSVReader: Sendable {
    /// The default chunk size: 1 MiB.
    static let defaultChunkSize = 1 << 20
    /// The most bytes looked at to guess the delimiter when the first line is longer.
    static let sniffLimit = 1 << 20

    /// File name used in messages: the last path component of the path, or the name given with the bytes.
    public let name: String
    /// The field separator: the one given, else the one implied by a `.tsv`/`.tab` name, else the one guessed
    /// from the first non-blank line. Known once `forEachRecord` has delivered the first record.
    public private(set) var delimiter: Delimiter
    /// Whether the text started with a UTF-8 byte-order mark (which is skipped). Known once reading has started.
    public private(set) var hadByteOrderMark = false
    /// The encoding the text was read in. Known once reading has started. Offsets and stops are in the bytes of the
    /// file only for UTF-8: text in another encoding is read whole, from the start.
    public private(set) var encoding = TextEncoding.utf8
    /// The encoding text without a byte-order mark is read in; `nil` to decide from the text: UTF-8 when all of it
    /// is well-formed UTF-8, else Windows-1252. When it is UTF-8, bytes that are not are reported per field.
    var requiredEncoding: TextEncoding?
    /// In how many parts at once a long text's encoding is checked (see `isUTF8`): one, unless the reader runs where
    /// the other cores are idle (`SourceSplit` looking for a large file's header).
    var encodingCheckParts = 1
    /// From how many bytes after the start the encoding is checked in parts (`UTF8Validator.partsFrom`; tests lower
    /// it).
    var encodingCheckInPartsFrom = UTF8Validator.partsFrom
    /// What a field, a record and the number of fields may not exceed; beyond them reading stops with `CSVError`
    /// before the bytes are buffered.
    public var limits = ReadLimits()
    /// The first line end seen outside quoted fields: "CRLF", "LF" or "CR"; `nil` when the text has none.
    /// Known once `forEachRecord` has returned.
    public private(set) var lineEnding: String?

    private let input: Input
    /// The delimiter chosen by the caller or by the file name; `nil` means guess from the content.
    private let fixedDelimiter: Delimiter?
    /// Size of the chunks read from the file.
    private let chunkSize: Int
    /// Where reading starts: 0, or a record boundary for a part of a file whose delimiter is known.
    private var startOffset = 0
    /// Reading stops at the first record boundary at or after this offset (`Int.max`: at the end).
    private var stopOffset = Int.max
    /// Where reading stopped at a record boundary at or after `stopOffset`; `nil` when it read to the end.
    private(set) var stoppedAt: Int?
    /// The 1-based line, counted from where reading started, of the byte where reading stopped or ended.
    private(set) var endLine = 1

    /// Prepares to read the file at `path`, splitting fields on `delimiter`, or on a detected one when `nil`.
    ///
    /// Throws `CSVError.unreadable` at once when the file cannot be opened (missing, a directory, no permission);
    /// the error names the file by its path as given.
    public init(path: String, delimiter: Delimiter? = nil) throws(CSVError) {
        try self.init(path: path, delimiter: delimiter, chunkSize: CSVReader.defaultChunkSize)
    }

    /// Prepares to read the file at `path` as `init(path:delimiter:)` does, in `encoding` unless the file starts
    /// with a byte-order mark (which cannot be wrong); `nil` decides from the text.
    public init(path: String, delimiter: Delimiter? = nil, encoding: TextEncoding?) throws(CSVError) {
        try self.init(path: path, delimiter: delimiter, chunkSize: CSVReader.defaultChunkSize)
        requiredEncoding = encoding
    }

    /// As `init(path:delimiter:)`, with a chosen chunk size (tests use tiny ones to cut the text everywhere).
    init(path: String, delimiter: Delimiter?, chunkSize: Int) throws(CSVError) {
        var source = try ByteSource(path: path, name: path)
        source.finish()
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        self.init(input: .file(path: path), name: name, delimiter: delimiter, chunkSize: chunkSize)
    }

    /// Reads CSV text already in memory (standard input, tests); `name` names it in messages and, through its
    /// extension, may select the tab delimiter.
    public init(bytes: [UInt8], name: String, delimiter: Delimiter? = nil) {
        self.init(bytes: bytes, name: name, delimiter: delimiter, chunkSize: CSVReader.defaultChunkSize)
    }

    /// Reads CSV text already in memory as `init(bytes:name:delimiter:)` does, in `encoding` unless the text starts
    /// with a byte-order mark (which cannot be wrong); `nil` decides from the text.
    public init(bytes: [UInt8], name: String, delimiter: Delimiter? = nil, encoding: TextEncoding?) {
        self.init(bytes: bytes, name: name, delimiter: delimiter, chunkSize: CSVReader.defaultChunkSize)
        requiredEncoding = encoding
    }

    /// As `init(bytes:name:delimiter:)`, with a chosen chunk size (tests use tiny ones to cut the text everywhere).
    init(bytes: [UInt8], name: String, delimiter: Delimiter?, chunkSize: Int) {
        self.init(input: .memory(bytes), name: name, delimiter: delimiter, chunkSize: chunkSize)
    }

    /// Reads the part of the file at `path` (or of `bytes`) that starts at `start`, a record boundary past the header
    /// found by a whole-file reader with the same `delimiter`, and ends at the first record boundary at or after
    /// `stop`. Lines are counted from 1 at `start`.
    init(part input: Input, name: String, delimiter: Delimiter, from start: Int, stoppingAt stop: Int, chunkSize: Int) {
        self.init(input: input, name: name, delimiter: delimiter, chunkSize: chunkSize)
        startOffset = start
        stopOffset = stop
    }

    /// As `init(path:delimiter:)`, reading only up to the first record boundary at or after `stop`.
    init(path: String, delimiter: Delimiter?, stoppingAt stop: Int, chunkSize: Int = CSVReader.defaultChunkSize)
        throws(CSVError)
    {
        try self.init(path: path, delimiter: delimiter, chunkSize: chunkSize)
        stopOffset = stop
    }

    /// As `init(bytes:name:delimiter:)`, reading only up to the first record boundary at or after `stop`.
    init(
        bytes: [UInt8], name: String, delimiter: Delimiter?, stoppingAt stop: Int,
        chunkSize: Int = CSVReader.defaultChunkSize
    ) {
        self.init(bytes: bytes, name: name, delimiter: delimiter, chunkSize: chunkSize)
        stopOffset = stop
    }

    /// The length of the text in bytes, when it can be found out (to presize what is read into).
    var expectedLength: Int? {
        switch input {
        case .file(let path): ByteSource.size(of: path)
        case .memory(let bytes): bytes.count
        }
    }

    /// Where the bytes of a part come from.
    enum Input {
        case file(path: String)
        case memory([UInt8])
    }

    private init(input: Input, name: String, delimiter: Delimiter?, chunkSize: Int) {
        precondition(chunkSize > 0, "chunk size must be positive")
        self.input = input
        self.name = name
        self.chunkSize = chunkSize
        fixedDelimiter = delimiter ?? DelimiterSniffer.delimiter(forFileName: name)
        self.delimiter = fixedDelimiter ?? .comma
    }

    /// Parses the whole text, calling `body` with each non-blank record in order.
    ///
    /// The record's field buffers are reused for the next record: they are valid only inside `body`.
    /// Throws `CSVError` for a file-level problem (after delivering the records before it), and rethrows whatever
    /// `body` throws, which stops reading.
    public mutating func forEachRecord(_ body: (borrowing CSVRecord) throws -> Void) throws {
        var source: ByteSource
        var bufferSize = chunkSize
        switch input {
        case .file(let path):
            source = try ByteSource(path: path, name: path, offset: startOffset)
        case .memory(let bytes):
            source = ByteSource(bytes: bytes, name: name, offset: startOffset)
            bufferSize = max(1, min(chunkSize, bytes.count - min(startOffset, bytes.count)))
        }
        defer { source.finish() }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bufferSize)
        defer { buffer.deallocate() }
        var tokenizer = CSVTokenizer(delimiter: delimiter, fileName: name, limits: limits)
        tokenizer.stopOffset = stopOffset
        // Where the next bytes read lie in the text.
        var offset = startOffset
        defer {
            lineEnding = tokenizer.lineEnding
            stoppedAt = tokenizer.stoppedAt
            endLine = tokenizer.line
        }
        // Converts text in another encoding to UTF-8 as it is read; `nil` for UTF-8.
        var transcoder: TextTranscoder?
        var converted: [UInt8] = []
        if startOffset == 0 {
            // The start of the text is kept whole until the encoding and the delimiter are known.
            var start: [UInt8] = []
            var atEnd = false
            func readMore() throws(CSVError) {
                // The first bytes go straight into `start` (text in memory is taken whole, without a copy): most
                // files are one chunk, which is then not read into `buffer` and copied out again.
                if start.isEmpty && transcoder == nil {
                    start = try source.nextChunk(capacity: buffer.count)
                    if start.isEmpty { atEnd = true }
                    return
                }
                let count = try source.nextChunk(into: buffer)
                let piece = UnsafeBufferPointer(rebasing: buffer[0..<count])
                if count == 0 {
                    atEnd = true
                    transcoder?.finish(appendingTo: &start)
                } else if transcoder != nil {
                    transcoder!.convert(piece, appendingTo: &start)
                } else {
                    start.append(contentsOf: piece)
                }
            }
            while start.count < EncodingSniffer.sampleSize && !atEnd { try readMore() }
            var textStart = try checkEncoding(of: start)
            if !hadByteOrderMark {
                if let utf16 = EncodingSniffer.utf16Encoding(of: start[...]) {
                    encoding = utf16
                    textStart = 2
                } else if let requiredEncoding {
                    encoding = requiredEncoding
                } else if try !isUTF8(start: start, atEnd: atEnd) {
                    encoding = .windows1252
                }
                if encoding != .utf8 {
                    var converter = TextTranscoder(from: encoding)
                    var text: [UInt8] = []
                    start.withUnsafeBufferPointer {
                        converter.convert(UnsafeBufferPointer(rebasing: $0[textStart...]), appendingTo: &text)
                    }
                    if atEnd { converter.finish(appendingTo: &text) }
                    start = text
                    textStart = 0
                    transcoder = converter
                }
            }
            if Self.isWebPage(start[textStart...]) { throw CSVError.webPage(file: name) }
            if fixedDelimiter == nil {
                var sniffer = DelimiterSniffer()
                var scanned = textStart
                while true {
                    let complete = start.withUnsafeBufferPointer {
                        sniffer.scan(UnsafeBufferPointer(rebasing: $0[scanned...]))
                    }
                    scanned = start.count
                    if complete || atEnd || scanned - textStart >= CSVReader.sniffLimit { break }
                    try readMore()
                }
                delimiter = sniffer.delimiter
            }
            tokenizer = CSVTokenizer(delimiter: delimiter, fileName: name, limits: limits)
            tokenizer.stopOffset = stopOffset
            let going = try start.withUnsafeBufferPointer { startBuffer in
                var position = textStart
                while position < startBuffer.count {
                    let end = min(position + chunkSize, startBuffer.count)
                    let chunk = UnsafeBufferPointer(rebasing: startBuffer[position..<end])
                    guard try tokenizer.consume(chunk, at: position, body) else { return false }
                    position = end
                }
                return true
            }
            guard going else { return }
            offset = start.count
            if atEnd { transcoder = nil }
        }
        while true {
            let count = try source.nextChunk(into: buffer)
            let chunk = UnsafeBufferPointer(rebasing: buffer[0..<count])
            guard transcoder != nil else {
                if count == 0 { break }
                guard try tokenizer.consume(chunk, at: offset, body) else { return }
                offset += count
                continue
            }
            // Offsets are then in the converted text, which is never read in parts.
            converted.removeAll(keepingCapacity: true)
            if count == 0 {
                transcoder!.finish(appendingTo: &converted)
                transcoder = nil
            } else {
                transcoder!.convert(chunk, appendingTo: &converted)
            }
            if !converted.isEmpty {
                let going = try converted.withUnsafeBufferPointer { try tokenizer.consume($0, at: offset, body) }
                guard going else { return }
                offset += converted.count
            }
            if count == 0 { break }
        }
        try tokenizer.finish(at: offset, body)
    }

    /// The starts of an HTML page, in lower case: what a server sends in a sheet's place when it asks to sign in or
    /// reports an error.
    static let webPageStarts: [[UInt8]] = ["<!doctype html", "<html", "<head", "<body"].map { Array($0.utf8) }

    /// Whether `text`, the start of the text (in UTF-8, after any byte-order mark), is the start of an HTML page:
    /// after white space, one of `webPageStarts` in any case.
    static func isWebPage(_ text: ArraySlice<UInt8>) -> Bool {
        guard let first = text.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
            return false
        }
        let rest = text[first...]
        return webPageStarts.contains { start in
            rest.count >= start.count
                && zip(rest.prefix(start.count), start).allSatisfy { byte, wanted in
                    (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == wanted
                }
        }
    }

    /// Whether the whole text is well-formed UTF-8: `start`, the bytes read so far, then (unless `atEnd`) the rest,
    /// read in a pass of its own so that a UTF-8 file is never held whole in memory; in `encodingCheckParts` ranges
    /// at once when it is long (`UTF8Validator.isValid(_:name:from:after:parts:minimum:)`).
    private func isUTF8(start: [UInt8], atEnd: Bool) throws(CSVError) -> Bool {
        var validator = UTF8Validator.Stream()
        start.withUnsafeBufferPointer { validator.take($0) }
        if !atEnd && !validator.foundInvalid,
            let valid = UTF8Validator.isValid(
                input, name: name, from: start.count, after: validator, parts: encodingCheckParts,
                minimum: encodingCheckInPartsFrom)
        {
            return valid
        }
        if !atEnd && !validator.foundInvalid {
            var rest: ByteSource
            switch input {
            case .file(let path): rest = try ByteSource(path: path, name: path, offset: start.count)
            case .memory(let bytes): rest = ByteSource(bytes: bytes, name: name, offset: start.count)
            }
            defer { rest.finish() }
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(chunkSize, 65_536))
            defer { buffer.deallocate() }
            while !validator.foundInvalid {
                let count = try rest.nextChunk(into: buffer)
                if count == 0 { break }
                validator.take(UnsafeBufferPointer(rebasing: buffer[0..<count]))
            }
        }
        return validator.isValid
    }

    /// Checks the encoding of the start of `text`: returns 3 after a UTF-8 byte-order mark (and remembers it), 0
    /// otherwise, and throws for UTF-32 (with or without a byte-order mark) and UTF-16 without one, which this reader
    /// does not decode unless UTF-16 is required.
    private mutating func checkEncoding(of text: [UInt8]) throws(CSVError) -> Int {
        let utf16Required = requiredEncoding == .utf16LittleEndian || requiredEncoding == .utf16BigEndian
        if let encoding = EncodingSniffer.unsupportedEncoding(of: text[...], utf16Expected: utf16Required) {
            throw .unsupportedEncoding(file: name, encoding: encoding)
        }
        if text.starts(with: EncodingSniffer.utf8ByteOrderMark) {
            hadByteOrderMark = true
            return 3
        }
        return 0
    }
}
