/// Streaming reader of CSV and TSV files (RFC 4180 plus what real spreadsheet exports do).
///
/// The file is read in fixed-size chunks with `read(2)` and parsed in one pass, so memory use does not grow with
/// the file: a 1 GB export needs about one chunk plus the largest record. Quoted fields may hold delimiters and
/// line breaks; CRLF, LF and lone CR all end records, even mixed in one file; blank lines are skipped; a UTF-8
/// byte-order mark is skipped, and UTF-16 or UTF-32 text (with or without a byte-order mark) is refused. Problems inside a field (stray quotes, invalid UTF-8) are reported on the record
/// and do not stop reading; problems with the whole file throw `CSVError`.
public struct CSVReader: Sendable {
    /// Where the bytes come from.
    private enum Input {
        case file(path: String)
        case memory([UInt8])
    }

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
    /// The first line end seen outside quoted fields: "CRLF", "LF" or "CR"; `nil` when the text has none.
    /// Known once `forEachRecord` has returned.
    public private(set) var lineEnding: String?

    private let input: Input
    /// The delimiter chosen by the caller or by the file name; `nil` means guess from the content.
    private let fixedDelimiter: Delimiter?
    /// Size of the chunks read from the file.
    private let chunkSize: Int

    /// Prepares to read the file at `path`, splitting fields on `delimiter`, or on a detected one when `nil`.
    ///
    /// Throws `CSVError.unreadable` at once when the file cannot be opened (missing, a directory, no permission);
    /// the error names the file by its path as given.
    public init(path: String, delimiter: Delimiter? = nil) throws(CSVError) {
        try self.init(path: path, delimiter: delimiter, chunkSize: CSVReader.defaultChunkSize)
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

    /// As `init(bytes:name:delimiter:)`, with a chosen chunk size (tests use tiny ones to cut the text everywhere).
    init(bytes: [UInt8], name: String, delimiter: Delimiter?, chunkSize: Int) {
        self.init(input: .memory(bytes), name: name, delimiter: delimiter, chunkSize: chunkSize)
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
            source = try ByteSource(path: path, name: path)
        case .memory(let bytes):
            source = ByteSource(bytes: bytes, name: name)
            bufferSize = max(1, min(chunkSize, bytes.count))
        }
        defer { source.finish() }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bufferSize)
        defer { buffer.deallocate() }

        // The start of the text is kept whole until the encoding and the delimiter are known.
        var start: [UInt8] = []
        var atEnd = false
        func readMore() throws(CSVError) {
            let count = try source.nextChunk(into: buffer)
            if count == 0 {
                atEnd = true
            } else {
                start.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<count]))
            }
        }
        while start.count < EncodingSniffer.sampleSize && !atEnd { try readMore() }
        let textStart = try checkEncoding(of: start)
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

        var tokenizer = CSVTokenizer(delimiter: delimiter, fileName: name)
        defer { lineEnding = tokenizer.lineEnding }
        try start.withUnsafeBufferPointer { startBuffer in
            var offset = textStart
            while offset < startBuffer.count {
                let end = min(offset + chunkSize, startBuffer.count)
                try tokenizer.consume(UnsafeBufferPointer(rebasing: startBuffer[offset..<end]), body)
                offset = end
            }
        }
        start = []
        while !atEnd {
            let count = try source.nextChunk(into: buffer)
            if count == 0 { break }
            try tokenizer.consume(UnsafeBufferPointer(rebasing: buffer[0..<count]), body)
        }
        try tokenizer.finish(body)
    }

    /// Checks the encoding of the start of `text`: returns 3 after a UTF-8 byte-order mark (and remembers it), 0
    /// for other UTF-8 text, and throws for UTF-16 and UTF-32, with or without a byte-order mark, which this reader
    /// does not decode.
    private mutating func checkEncoding(of text: [UInt8]) throws(CSVError) -> Int {
        if let encoding = EncodingSniffer.unsupportedEncoding(of: text[...]) {
            throw .unsupportedEncoding(file: name, encoding: encoding)
        }
        if text.starts(with: EncodingSniffer.utf8ByteOrderMark) {
            hadByteOrderMark = true
            return 3
        }
        return 0
    }
}
