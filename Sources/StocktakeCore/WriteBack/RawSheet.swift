/// Where every cell of a delimited text lies among its bytes, so that single cells can be rewritten and every
/// other byte copied as it was.
///
/// Records and cells are split exactly as `CSVTokenizer` splits them: CRLF, LF and lone CR end records outside
/// quotes, blank lines are skipped, a field starting with `"` is quoted (`""` inside stands for one quote) and
/// anything after its closing quote belongs to the same cell. The text must already have been read whole by
/// `CSVReader`, which refuses unreadable encodings and unclosed quotes.
struct RawSheet {
    /// One record: the byte range of each cell, quotes included, delimiters and line ends excluded.
    struct Record {
        var cells: [Range<Int>]

        /// The offset just after the record's last cell, where its line end (if any) starts.
        var end: Int { cells[cells.count - 1].upperBound }
    }

    /// The whole text, byte-order mark included.
    let bytes: [UInt8]
    /// The records in file order; every record has at least one cell.
    private(set) var records: [Record] = []

    /// Splits `bytes` from `start` (past a byte-order mark) into records of cells separated by `delimiter`.
    init(bytes: [UInt8], start: Int, delimiter: Delimiter) {
        self.bytes = bytes
        let separator = delimiter.rawValue
        let count = bytes.count
        var index = start
        while index < count {
            let byte = bytes[index]
            if byte == ASCII.carriageReturn || byte == ASCII.lineFeed {
                index += 1
                continue
            }
            var cells: [Range<Int>] = []
            while true {
                let cellStart = index
                if index < count && bytes[index] == ASCII.quote {
                    index += 1
                    while index < count {
                        if bytes[index] == ASCII.quote {
                            if index + 1 < count && bytes[index + 1] == ASCII.quote {
                                index += 2
                                continue
                            }
                            index += 1
                            break
                        }
                        index += 1
                    }
                }
                while index < count {
                    let byte = bytes[index]
                    if byte == separator || byte == ASCII.carriageReturn || byte == ASCII.lineFeed { break }
                    index += 1
                }
                cells.append(cellStart..<index)
                guard index < count && bytes[index] == separator else { break }
                index += 1
            }
            records.append(Record(cells: cells))
        }
    }

    /// The text of a cell as `CSVReader` delivers it: quotes removed, `""` made `"`, text after a closing quote kept.
    func text(_ range: Range<Int>) -> [UInt8] {
        guard let first = range.first, bytes[first] == ASCII.quote else { return Array(bytes[range]) }
        var text: [UInt8] = []
        text.reserveCapacity(range.count)
        var index = first + 1
        var quoted = true
        while index < range.upperBound {
            let byte = bytes[index]
            index += 1
            guard quoted, byte == ASCII.quote else {
                text.append(byte)
                continue
            }
            if index < range.upperBound && bytes[index] == ASCII.quote {
                text.append(ASCII.quote)
                index += 1
            } else {
                quoted = false
            }
        }
        return text
    }

    /// How `text` is written as one cell: as it is, or quoted with inner quotes doubled when it holds the
    /// delimiter, a quote or a line break.
    static func encoded(_ text: String, delimiter: Delimiter) -> [UInt8] {
        let utf8 = Array(text.utf8)
        let needsQuotes = utf8.contains { byte in
            byte == delimiter.rawValue || byte == ASCII.quote || byte == ASCII.carriageReturn
                || byte == ASCII.lineFeed
        }
        guard needsQuotes else { return utf8 }
        var output: [UInt8] = [ASCII.quote]
        output.reserveCapacity(utf8.count + 2)
        for byte in utf8 {
            output.append(byte)
            if byte == ASCII.quote { output.append(ASCII.quote) }
        }
        output.append(ASCII.quote)
        return output
    }
}
