import Testing

@testable import StocktakeCore

@Suite struct RawSheetTests {
    /// The sheet as `RawSheet` splits it.
    private func sheet(_ bytes: [UInt8], delimiter: Delimiter, byteOrderMark: Bool) -> RawSheet {
        RawSheet(bytes: bytes, start: byteOrderMark ? 3 : 0, delimiter: delimiter)
    }

    /// The text of every cell of every record, as `RawSheet` delivers it.
    private func texts(_ sheet: RawSheet) -> [[String]] {
        sheet.bytes.withUnsafeBufferPointer { text in
            var scratch: [UInt8] = []
            return (0..<sheet.recordCount).map { record in
                (0..<sheet.cellCount(record)).map { cell in
                    RawSheet.withText(sheet.cell(record, cell), of: text, scratch: &scratch) {
                        String(decoding: $0, as: UTF8.self)
                    }
                }
            }
        }
    }

    /// The damaged cells of every record, as `RawSheet` finds them.
    private func damaged(_ sheet: RawSheet) -> [[Int]] {
        (0..<sheet.recordCount).map { record in
            (0..<sheet.cellCount(record)).filter { sheet.isDamaged(record, $0) }
        }
    }

    /// Checks that `RawSheet` splits `bytes` as `CSVReader` reads them: cells, damaged cells and line end.
    private func expectSplitAsTheReaderDoes(
        _ bytes: [UInt8], delimiter: Delimiter = .comma, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        // A sheet in another encoding is converted before it is split, so the sheet is always UTF-8 here.
        var reader = CSVReader(bytes: bytes, name: "sheet.csv", delimiter: delimiter)
        reader.requiredEncoding = .utf8
        let read = readAllCSV(&reader)
        #expect(read.error == nil, sourceLocation: sourceLocation)
        let raw = sheet(bytes, delimiter: delimiter, byteOrderMark: read.hadByteOrderMark)
        #expect(texts(raw) == read.records.map(\.fields), sourceLocation: sourceLocation)
        #expect(
            damaged(raw) == read.records.map { Array(Set($0.problems.map(\.field))).sorted() },
            sourceLocation: sourceLocation)
        #expect(raw.lineEnding == read.lineEnding, sourceLocation: sourceLocation)
        #expect(!raw.endsInsideQuotes, sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        "a,b,c\r\n1,2,3\r\n",
        "a,b\n\n\r\n1,2",
        "a,b\r1,2\r",
        "\r\n\na,b\r",
        "\"x, y\",\"say \"\"hi\"\"\",z\n",
        "\"multi\r\nline\",2\n3,\"\"\n",
        "\"closed\"tail,\"\"\"\",plain\"quote\n",
        "a,b,\n,,\n",
        "a,b,",
        "\u{FEFF}tag,room\r\n001234,\"=HYPERLINK(\"\"u\"\",\"\"t\"\")\"\r\n",
        "\"\"",
        "",
        "\"a\nb\"\r\nc",
        "café,\"日本\",\"x\"\"é\"\"\"\n",
    ])
    func splitsCellsExactlyAsTheReaderDoes(text: String) {
        expectSplitAsTheReaderDoes(Array(text.utf8))
    }

    @Test func findsTheCellsWhoseBytesAreNotUTF8AsTheReaderDoes() {
        // A lone continuation byte, a sequence cut short, an overlong form; in plain and in quoted cells.
        let bytes: [UInt8] =
            Array("a,b,c\n".utf8) + [0x80] + Array(",\"x".utf8) + [0xC3] + Array("\",\"ok é\"\n".utf8)
            + Array("\"".utf8) + [0xC0, 0x80] + Array("\"\"\",".utf8) + [0xE2, 0x82, 0xAC] + Array(",\"".utf8)
            + [0xC3] + Array("\"".utf8) + [0xA9] + Array("\n".utf8)
        expectSplitAsTheReaderDoes(bytes)
        let raw = sheet(bytes, delimiter: .comma, byteOrderMark: false)
        #expect(damaged(raw) == [[], [0, 1], [0, 2]])
    }

    @Test func splitsRandomTextAsTheReaderDoes() {
        var generator = CSVTestRandomGenerator(seed: 20_261_124)
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("9".utf8), Array(" ".utf8), Array("\"".utf8), Array("\"\"".utf8), Array(",".utf8),
            Array(";".utf8), Array("\t".utf8), Array("\r\n".utf8), Array("\n".utf8), Array("\r".utf8),
            Array("é".utf8), [0xC3], [0x80], Array("=".utf8),
        ]
        for _ in 0..<400 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...30, using: &generator) {
                bytes += pieces.randomElement(using: &generator)!
            }
            let delimiter = Delimiter.allCases.randomElement(using: &generator)!
            var reader = CSVReader(bytes: bytes, name: "sheet.csv", delimiter: delimiter)
            reader.requiredEncoding = .utf8
            let read = readAllCSV(&reader)
            let raw = sheet(bytes, delimiter: delimiter, byteOrderMark: read.hadByteOrderMark)
            // The sheet ends inside quotes exactly when the reader refuses it.
            #expect(raw.endsInsideQuotes == (read.error != nil), "\(bytes)")
            guard read.error == nil else { continue }
            #expect(texts(raw) == read.records.map(\.fields), "\(bytes)")
            #expect(damaged(raw) == read.records.map { Array(Set($0.problems.map(\.field))).sorted() }, "\(bytes)")
            #expect(raw.lineEnding == read.lineEnding, "\(bytes)")
        }
    }

    @Test func aQuoteLeftOpenIsNoticed() {
        let raw = sheet(Array("a,b\n1,\"2\n3,4\n".utf8), delimiter: .comma, byteOrderMark: false)
        #expect(raw.endsInsideQuotes)
    }

    @Test func splitsTabSeparatedText() {
        let bytes = Array("a\tb, c\t\"d\te\"\n1\t2\n".utf8)
        #expect(texts(sheet(bytes, delimiter: .tab, byteOrderMark: false)) == [["a", "b, c", "d\te"], ["1", "2"]])
        expectSplitAsTheReaderDoes(bytes, delimiter: .tab)
    }

    @Test func rangesCoverTheRawBytesQuotesIncluded() {
        let raw = sheet(Array("ab,\"c,d\",\ne".utf8), delimiter: .comma, byteOrderMark: false)
        #expect(raw.recordCount == 2)
        #expect((0..<raw.cellCount(0)).map { raw.cell(0, $0) } == [0..<2, 3..<8, 9..<9])
        #expect((0..<raw.cellCount(1)).map { raw.cell(1, $0) } == [10..<11])
        #expect([raw.end(0), raw.end(1)] == [9, 11])
    }

    @Test func theTextBufferUnescapesQuotedCellsAndPassesOthersInPlace() {
        let bytes = Array("plain,\"say \"\"hi\"\"\"tail".utf8)
        let raw = sheet(bytes, delimiter: .comma, byteOrderMark: false)
        let buffer = RawSheet.TextBuffer()
        bytes.withUnsafeBufferPointer { text in
            let plain = buffer.text(raw.cell(0, 0), of: text)
            #expect(plain.baseAddress == text.baseAddress)
            #expect(String(decoding: plain, as: UTF8.self) == "plain")
            #expect(String(decoding: buffer.text(raw.cell(0, 1), of: text), as: UTF8.self) == "say \"hi\"tail")
        }
    }

    @Test func encodesACellOnlyAsMuchAsItNeeds() {
        func encoded(_ text: String, _ delimiter: Delimiter = .comma) -> String {
            var output: [UInt8] = []
            Array(text.utf8).withUnsafeBufferPointer { RawSheet.appendEncoded($0, delimiter: delimiter, to: &output) }
            return String(decoding: output, as: UTF8.self)
        }
        #expect(encoded("B-12") == "B-12")
        #expect(encoded("B-12, WEST") == "\"B-12, WEST\"")
        #expect(encoded("B-12, WEST", .tab) == "B-12, WEST")
        #expect(encoded("a\tb", .tab) == "\"a\tb\"")
        #expect(encoded("a;b", .semicolon) == "\"a;b\"")
        #expect(encoded("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(encoded("two\nlines") == "\"two\nlines\"")
        #expect(encoded("") == "")
    }

    /// Everything a sheet split tells: each record's cell ranges, end and damaged cells, the line end, an open quote.
    private func layout(_ sheet: RawSheet) -> String {
        let damaged = damaged(sheet)
        let records = (0..<sheet.recordCount).map { record in
            let cells = (0..<sheet.cellCount(record)).map { "\(sheet.cell(record, $0))" }
            return "\(cells) \(sheet.end(record)) \(damaged[record])"
        }
        return "\(records) \(sheet.lineEnding ?? "none") \(sheet.endsInsideQuotes)"
    }

    @Test func aTextSplitInPiecesIsSplitAsInOnePass() {
        // Pieces start after a line break; a quoted line break there makes the piece before run past it.
        var generator = CSVTestRandomGenerator(seed: 20_261_125)
        let tokens: [[UInt8]] = [
            Array("a".utf8), Array("\"".utf8), Array("\"\"".utf8), Array(",".utf8), Array("\r\n".utf8),
            Array("\n".utf8), Array("\n".utf8), Array("\r".utf8), [0xC3], Array("é".utf8),
        ]
        for _ in 0..<300 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...60, using: &generator) { bytes += tokens.randomElement(using: &generator)! }
            let byteOrderMark = Bool.random(using: &generator)
            if byteOrderMark { bytes = [0xEF, 0xBB, 0xBF] + bytes }
            let start = byteOrderMark ? 3 : 0
            let whole = layout(RawSheet(bytes: bytes, start: start, delimiter: .comma, pieces: 1))
            for pieces in 2...9 {
                #expect(
                    layout(RawSheet(bytes: bytes, start: start, delimiter: .comma, pieces: pieces)) == whole,
                    "\(bytes) in \(pieces) pieces")
            }
        }
    }

    @Test func aLargeSheetWithQuotedLineBreaksIsSplitInPiecesAsInOnePass() {
        var text = "VT Tag,Notes,Room\r\n"
        for row in 0..<5_000 {
            text +=
                row % 7 == 0 ? "\(row),\"line\r\nbreak \"\"\(row)\"\"\n\n\",R\(row)\r\n" : "\(row),plain,R\(row)\r\n"
            if row % 11 == 0 { text += "\r\n" }
        }
        let bytes = Array(text.utf8)
        let whole = RawSheet(bytes: bytes, start: 0, delimiter: .comma, pieces: 1)
        #expect(whole.recordCount == 5_001)
        for pieces in [2, 3, 8, 64, 1_000] {
            #expect(layout(RawSheet(bytes: bytes, start: 0, delimiter: .comma, pieces: pieces)) == layout(whole))
        }
    }
}
