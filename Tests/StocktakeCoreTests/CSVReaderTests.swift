import Foundation
import Testing

@testable import StocktakeCore

@Suite("CSVReader")
struct CSVReaderTests {
    // MARK: Records and fields

    @Test func readsSimpleFile() {
        let result = readCSV("name,tag\nAP-1,VT001\nAP-2,VT002\n")
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 1, fields: ["name", "tag"]),
                CSVReadRecord(line: 2, lineCount: 1, fields: ["AP-1", "VT001"]),
                CSVReadRecord(line: 3, lineCount: 1, fields: ["AP-2", "VT002"]),
            ])
        #expect(result.delimiter == .comma)
        #expect(result.lineEnding == "LF")
        #expect(result.hadByteOrderMark == false)
        #expect(result.error == nil)
    }

    @Test func keepsCommasInsideQuotes() {
        let result = readCSV("a,\"b,c\",d\n\"x, y\",,\"\"\n")
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 1, fields: ["a", "b,c", "d"]),
                CSVReadRecord(line: 2, lineCount: 1, fields: ["x, y", "", ""]),
            ])
    }

    @Test func unescapesDoubledQuotes() {
        let result = readCSV("\"say \"\"hi\"\"\",x\n\"\"\"\"\n\"a\"\"\"\"b\"\n")
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 1, fields: ["say \"hi\"", "x"]),
                CSVReadRecord(line: 2, lineCount: 1, fields: ["\""]),
                CSVReadRecord(line: 3, lineCount: 1, fields: ["a\"\"b"]),
            ])
    }

    @Test func quotedFieldSpansLines() {
        let result = readCSV("id,note\r\n1,\"line one\r\nline two\nline three\rend\"\r\n2,after\r\n")
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 1, fields: ["id", "note"]),
                CSVReadRecord(line: 2, lineCount: 4, fields: ["1", "line one\r\nline two\nline three\rend"]),
                CSVReadRecord(line: 6, lineCount: 1, fields: ["2", "after"]),
            ])
        #expect(result.lineEnding == "CRLF")
    }

    @Test func quotedLineBreakBeforeClosingQuoteThenLineFeedCountsTwoLines() {
        // CR inside the quotes, then the closing quote, then LF: two separate line ends.
        let result = readCSV("\"a\r\"\nb\n")
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 2, fields: ["a\r"]),
                CSVReadRecord(line: 3, lineCount: 1, fields: ["b"]),
            ])
    }

    @Test func readsCarriageReturnLineFeedFile() {
        let result = readCSV("a,b\r\nc,d\r\n")
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 1, fields: ["a", "b"]),
                CSVReadRecord(line: 2, lineCount: 1, fields: ["c", "d"]),
            ])
        #expect(result.lineEnding == "CRLF")
    }

    @Test func readsLoneCarriageReturnFile() {
        let result = readCSV("a,b\rc,d\re,f")
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 1, fields: ["a", "b"]),
                CSVReadRecord(line: 2, lineCount: 1, fields: ["c", "d"]),
                CSVReadRecord(line: 3, lineCount: 1, fields: ["e", "f"]),
            ])
        #expect(result.lineEnding == "CR")
    }

    @Test func fileEndingInLoneCarriageReturnReportsCarriageReturn() {
        let result = readCSV("a\r")
        #expect(result.records == [CSVReadRecord(line: 1, lineCount: 1, fields: ["a"])])
        #expect(result.lineEnding == "CR")
    }

    @Test func readsMixedLineEnds() {
        let result = readCSV("a\r\nb\nc\rd\n\re")
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 1, fields: ["a"]),
                CSVReadRecord(line: 2, lineCount: 1, fields: ["b"]),
                CSVReadRecord(line: 3, lineCount: 1, fields: ["c"]),
                CSVReadRecord(line: 4, lineCount: 1, fields: ["d"]),
                CSVReadRecord(line: 6, lineCount: 1, fields: ["e"]),
            ])
        #expect(result.lineEnding == "CRLF")
    }

    @Test func textWithoutLineEndHasNoLineEnding() {
        let result = readCSV("a,b")
        #expect(result.records == [CSVReadRecord(line: 1, lineCount: 1, fields: ["a", "b"])])
        #expect(result.lineEnding == nil)
    }

    @Test func emptyTextHasNoRecords() {
        let result = readCSV("")
        #expect(result == CSVReadResult())
    }

    @Test func skipsUTF8ByteOrderMark() {
        let result = readCSV([0xEF, 0xBB, 0xBF] + Array("x,y\n1,2\n".utf8))
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 1, fields: ["x", "y"]),
                CSVReadRecord(line: 2, lineCount: 1, fields: ["1", "2"]),
            ])
        #expect(result.hadByteOrderMark)
    }

    @Test func byteOrderMarkAloneGivesNoRecords() {
        let result = readCSV([0xEF, 0xBB, 0xBF])
        #expect(result.records == [])
        #expect(result.hadByteOrderMark)
        #expect(result.error == nil)
    }

    @Test func skipsBlankLines() {
        let result = readCSV("\n\r\n\na,b\r\n\r\nc,d\n\n\r\r\ne,f\n\n")
        #expect(
            result.records == [
                CSVReadRecord(line: 4, lineCount: 1, fields: ["a", "b"]),
                CSVReadRecord(line: 6, lineCount: 1, fields: ["c", "d"]),
                CSVReadRecord(line: 10, lineCount: 1, fields: ["e", "f"]),
            ])
        #expect(result.lineEnding == "LF")
    }

    @Test func deliversLinesOfDelimitersOnlyAndEmptyQuotedFields() {
        let result = readCSV(",,,\n\"\"\n")
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 1, fields: ["", "", "", ""]),
                CSVReadRecord(line: 2, lineCount: 1, fields: [""]),
            ])
    }

    @Test func trailingDelimiterGivesTrailingEmptyField() {
        let result = readCSV("a,b,\nc,d,")
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 1, fields: ["a", "b", ""]),
                CSVReadRecord(line: 2, lineCount: 1, fields: ["c", "d", ""]),
            ])
    }

    @Test func deliversRaggedRowsAsTheyAre() {
        let result = readCSV("a,b,c\n1,2\n1,2,3,4\nsolo\n")
        #expect(result.records.map(\.fields.count) == [3, 2, 4, 1])
        #expect(result.records[1].fields == ["1", "2"])
        #expect(result.records[2].fields == ["1", "2", "3", "4"])
    }

    @Test func recordViewGivesFieldBytesAndIsNotBlank() throws {
        var reader = CSVReader(bytes: Array("\"a\"\"b\",c\n".utf8), name: "view.csv")
        var seen = 0
        try reader.forEachRecord { record in
            seen += 1
            #expect(record.count == 2)
            #expect(Array(record[0]) == Array("a\"b".utf8))
            #expect(Array(record[1]) == [UInt8(ascii: "c")])
            #expect(record.string(at: 1) == "c")
            #expect(record.isBlank == false)
            #expect(record.problems == [])
        }
        #expect(seen == 1)
    }

    @Test func rethrowsErrorFromBodyAndStops() {
        struct Stop: Error {}
        var reader = CSVReader(bytes: Array("a\nb\nc\n".utf8), name: "stop.csv")
        var seen: [String] = []
        #expect(throws: Stop.self) {
            try reader.forEachRecord { record in
                seen.append(record.string(at: 0))
                if seen.count == 2 { throw Stop() }
            }
        }
        #expect(seen == ["a", "b"])
    }

    // MARK: Delimiters

    @Test func tabSeparatedByExtension() {
        let result = readCSV("a,b\tc\n", name: "export.tsv")
        #expect(result.records == [CSVReadRecord(line: 1, lineCount: 1, fields: ["a,b", "c"])])
        #expect(result.delimiter == .tab)
        #expect(readCSV("a,b\tc\n", name: "EXPORT.TAB").delimiter == .tab)
    }

    @Test func givenDelimiterOverridesExtensionAndContent() {
        let result = readCSV("a;b\tc\n", name: "export.tsv", delimiter: .semicolon)
        #expect(result.records == [CSVReadRecord(line: 1, lineCount: 1, fields: ["a", "b\tc"])])
        #expect(result.delimiter == .semicolon)
    }

    @Test func sniffsTab() {
        let result = readCSV("a\tb\tc\n1\t2,5\t3\n")
        #expect(result.delimiter == .tab)
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 1, fields: ["a", "b", "c"]),
                CSVReadRecord(line: 2, lineCount: 1, fields: ["1", "2,5", "3"]),
            ])
    }

    @Test func tabsWithCommasMeanComma() {
        let result = readCSV("a\tb,c\n")
        #expect(result.delimiter == .comma)
        #expect(result.records == [CSVReadRecord(line: 1, lineCount: 1, fields: ["a\tb", "c"])])
    }

    @Test func sniffsSemicolon() {
        let result = readCSV("a;b;c\n1,5;2;3\n")
        #expect(result.delimiter == .semicolon)
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 1, fields: ["a", "b", "c"]),
                CSVReadRecord(line: 2, lineCount: 1, fields: ["1,5", "2", "3"]),
            ])
    }

    @Test func sniffingIgnoresQuotedTextAndBlankLines() {
        let result = readCSV("\r\n\n\"a,b\";\"c\nd,e\";f\n")
        #expect(result.delimiter == .semicolon)
        #expect(result.records == [CSVReadRecord(line: 3, lineCount: 2, fields: ["a,b", "c\nd,e", "f"])])
    }

    @Test func tabsWinOverSemicolonsAndPlainTextMeansComma() {
        #expect(readCSV("a;b\tc\n").delimiter == .tab)
        #expect(readCSV("a;b,c\n").delimiter == .comma)
        #expect(readCSV("plain\n").delimiter == .comma)
    }

    @Test func delimiterNames() {
        #expect(Delimiter.allCases.map(\.name) == ["comma", "tab", "semicolon"])
    }

    // MARK: Field problems

    @Test func strayQuoteInUnquotedFieldIsKept() {
        let result = readCSV("ab\"c,d\"\"e\"\n")
        #expect(
            result.records == [
                CSVReadRecord(
                    line: 1, lineCount: 1, fields: ["ab\"c", "d\"\"e\""],
                    problems: [
                        CSVFieldProblem(kind: .strayQuote, field: 0, line: 1),
                        CSVFieldProblem(kind: .strayQuote, field: 1, line: 1),
                    ])
            ])
    }

    @Test func textAfterClosingQuoteIsAppended() {
        let result = readCSV("x,\"abc\"def,y\n\"p\nq\"r\"s\n")
        #expect(
            result.records == [
                CSVReadRecord(
                    line: 1, lineCount: 1, fields: ["x", "abcdef", "y"],
                    problems: [CSVFieldProblem(kind: .strayQuote, field: 1, line: 1)]),
                CSVReadRecord(
                    line: 2, lineCount: 2, fields: ["p\nqr\"s"],
                    problems: [CSVFieldProblem(kind: .strayQuote, field: 0, line: 3)]),
            ])
    }

    @Test func unterminatedQuoteNamesOpeningLine() {
        let result = readCSV("a,b\nc,\"open\nmore\nstill\n", name: "survey.csv")
        #expect(result.records == [CSVReadRecord(line: 1, lineCount: 1, fields: ["a", "b"])])
        #expect(result.error == .unterminatedQuote(file: "survey.csv", line: 2))
        #expect(
            result.error?.description
                == "survey.csv: a quoted field opened on line 2 is never closed. "
                + "Look for a stray \" on that line and save the file again.")
    }

    @Test func loneQuoteAtEndIsUnterminated() {
        #expect(readCSV("a\n\n\"").error == .unterminatedQuote(file: "test.csv", line: 3))
        #expect(readCSV("\"a\"\"").error == .unterminatedQuote(file: "test.csv", line: 1))
    }

    /// Text that must be UTF-8 (a UTF-8 byte-order mark says so, or the account's setting) and has bytes that are
    /// not: each damaged field is reported, and its bytes are kept as they are.
    @Test(arguments: [true, false])
    func invalidUTF8IsReportedAndReplacedWhenTheTextMustBeUTF8(byteOrderMark: Bool) {
        let text: [UInt8] = Array("ok,".utf8) + [0xFF] + Array("\n\"x\ny".utf8) + [0xC0, 0x80] + Array("\",z\n".utf8)
        let result =
            byteOrderMark ? readCSV(EncodingSniffer.utf8ByteOrderMark + text) : readCSV(text, encoding: .utf8)
        #expect(result.encoding == .utf8)
        #expect(
            result.records == [
                CSVReadRecord(
                    line: 1, lineCount: 1, fields: ["ok", "\u{FFFD}"],
                    problems: [CSVFieldProblem(kind: .invalidUTF8, field: 1, line: 1)]),
                CSVReadRecord(
                    line: 2, lineCount: 2, fields: ["x\ny\u{FFFD}\u{FFFD}", "z"],
                    problems: [CSVFieldProblem(kind: .invalidUTF8, field: 0, line: 3)]),
            ])
        #expect(result.fieldBytes[0][1] == [0xFF])
        #expect(result.fieldBytes[1][0] == Array("x\ny".utf8) + [0xC0, 0x80])
    }

    @Test func truncatedSequenceAtEndOfFileIsInvalid() {
        let result = readCSV(Array("a\nb,caf".utf8) + [0xC3], encoding: .utf8)
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 1, fields: ["a"]),
                CSVReadRecord(
                    line: 2, lineCount: 1, fields: ["b", "caf\u{FFFD}"],
                    problems: [CSVFieldProblem(kind: .invalidUTF8, field: 1, line: 2)]),
            ])
    }

    @Test func validMultibyteTextHasNoProblem() {
        let result = readCSV("café,日本,😀,\u{10FFFF}\n")
        #expect(result.records == [CSVReadRecord(line: 1, lineCount: 1, fields: ["café", "日本", "😀", "\u{10FFFF}"])])
    }

    @Test func strayQuoteAndInvalidUTF8InOneField() {
        let result = readCSV(Array("a\"".utf8) + [0xED, 0xA0, 0x80], encoding: .utf8)
        #expect(
            result.records == [
                CSVReadRecord(
                    line: 1, lineCount: 1, fields: ["a\"\u{FFFD}\u{FFFD}\u{FFFD}"],
                    problems: [
                        CSVFieldProblem(kind: .strayQuote, field: 0, line: 1),
                        CSVFieldProblem(kind: .invalidUTF8, field: 0, line: 1),
                    ])
            ])
    }

    // MARK: File errors

    @Test func rejectsUTF32ByteOrderMarks() {
        let cases: [([UInt8], String)] = [
            ([0xFF, 0xFE, 0x00, 0x00, 0x61, 0x00, 0x00, 0x00], "UTF-32 LE"),
            ([0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x00, 0x61], "UTF-32 BE"),
        ]
        for (bytes, encoding) in cases {
            for chunkSize in [1, 1 << 20] {
                let result = readCSV(bytes, name: "survey.csv", chunkSize: chunkSize)
                #expect(result.records == [])
                #expect(result.error == .unsupportedEncoding(file: "survey.csv", encoding: encoding))
            }
        }
        #expect(
            CSVError.unsupportedEncoding(file: "survey.csv", encoding: "UTF-32 LE").description
                == "survey.csv: the file is encoded as UTF-32 LE, which cannot be read. "
                + "Open it in a spreadsheet and save it as \"CSV UTF-8\".")
    }

    @Test func rejectsUTF16AndUTF32WithoutByteOrderMark() {
        // Excel's "Unicode text" saved without its byte-order mark: every other byte is NUL.
        let text = "VT Tag\tSerial\r\n100001\tS1\r\n100002\tS2\r\n"
        let cases: [([UInt8], String)] = [
            (utf16Bytes(text), "UTF-16 LE without a byte-order mark"),
            (utf16Bytes(text, bigEndian: true), "UTF-16 BE without a byte-order mark"),
            (utf32Bytes(text), "UTF-32 LE without a byte-order mark"),
            (utf32Bytes(text, bigEndian: true), "UTF-32 BE without a byte-order mark"),
            (utf16Bytes(String(repeating: text, count: 200)), "UTF-16 LE without a byte-order mark"),
        ]
        for (bytes, encoding) in cases {
            for chunkSize in [1, 3, 1 << 20] {
                let result = readCSV(bytes, name: "unicode.txt", chunkSize: chunkSize)
                #expect(result.records == [])
                #expect(result.error == .unsupportedEncoding(file: "unicode.txt", encoding: encoding))
            }
        }
        #expect(
            CSVError.unsupportedEncoding(file: "unicode.txt", encoding: "UTF-16 LE without a byte-order mark")
                .description
                == "unicode.txt: the file is encoded as UTF-16 LE without a byte-order mark, which cannot be read. "
                + "Open it in a spreadsheet and save it as \"CSV UTF-8\".")
    }

    /// A few NULs are not UTF-16 (which is refused as such above), but no sheet saved as text holds one either: the
    /// file is refused as binary at the first, instead of reading cells with NULs in them.
    @Test func utf8WithAFewNULsIsRefusedAsBinary() {
        let result = readCSV(Array("Tag,Serial\n1,S\u{0}1\n2,\u{0}\u{0}\n".utf8), chunkSize: 2)
        #expect(result.error == .binaryContent(file: "test.csv", line: 2))
        #expect(result.records == [CSVReadRecord(line: 1, lineCount: 1, fields: ["Tag", "Serial"])])
    }

    @Test func missingFileIsUnreadable() {
        let path = "/nonexistent-stocktake-dir/survey.csv"
        #expect(throws: CSVError.unreadable(file: path, reason: "No such file or directory", errno: ENOENT)) {
            _ = try CSVReader(path: path)
        }
        #expect(
            CSVError.unreadable(file: path, reason: "No such file or directory").description
                == "/nonexistent-stocktake-dir/survey.csv: the file cannot be read (No such file or directory). "
                + "Check that the path is right and the file is readable.")
    }

    @Test func directoryIsUnreadable() {
        let path = NSTemporaryDirectory()
        #expect(throws: CSVError.unreadable(file: path, reason: "Is a directory", errno: EISDIR)) {
            _ = try CSVReader(path: path)
        }
    }

    @Test func readsFileInChunksLikeBytes() throws {
        let text = Array("\u{FEFF}id\ttag\r\n1\t\"VT\n01\"\r\n\r\n2\tVT02".utf8)
        let path = NSTemporaryDirectory() + "/stocktake-csv-reader-\(UInt32.random(in: 0...UInt32.max)).tsv"
        try Data(text).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let name = (path as NSString).lastPathComponent
        let expected = readCSV(text, name: name)
        #expect(expected.delimiter == .tab)
        #expect(expected.hadByteOrderMark)
        #expect(expected.records.count == 3)
        for chunkSize in [1, 3, 1 << 20] {
            var reader = try CSVReader(path: path, delimiter: nil, chunkSize: chunkSize)
            #expect(reader.name == name)
            #expect(readAllCSV(&reader) == expected)
        }
    }

    // MARK: Chunk boundaries

    /// Texts that exercise every state of the tokenizer; each is read whole and in tiny chunks.
    static let fixtures: [(name: String, bytes: [UInt8])] = [
        ("simple.csv", Array("name,tag\nAP-1,VT001\nAP-2,VT002\n".utf8)),
        ("quoted.csv", Array("a,\"b,c\",d\n\"say \"\"hi\"\"\",\"\"\"\"\n".utf8)),
        ("multiline.csv", Array("id,note\r\n1,\"one\r\ntwo\nthree\rfour\"\r\n2,after\r\n".utf8)),
        ("crlf.csv", Array("a,b\r\nc,d\r\n".utf8)),
        ("cr.csv", Array("a,b\rc,d\re,f".utf8)),
        ("mixed.csv", Array("a\r\nb\nc\rd\n\re".utf8)),
        ("bom.csv", [0xEF, 0xBB, 0xBF] + Array("x,y\r\n1,2\r\n".utf8)),
        ("blank.csv", Array("\n\r\n\na,b\r\n\r\nc,d\n\n\r\r\ne,f\n\n".utf8)),
        ("trailing.csv", Array("a,b,\n,,,\nc,d,".utf8)),
        ("ragged.csv", Array("a,b,c\n1,2\n1,2,3,4\n".utf8)),
        ("export.tsv", Array("a,b\tc\n1\t2\n".utf8)),
        ("sniffed-tab.csv", Array("\r\na\tb\tc\n1\t2\t3\n".utf8)),
        ("semicolon.csv", Array("\"x;y\";b\n1,5;2\n".utf8)),
        ("stray.csv", Array("ab\"c,\"abc\"def,\"p\nq\"r\n".utf8)),
        ("unterminated.csv", Array("a,b\r\nc,\"open\r\nmore\r\n".utf8)),
        (
            "invalid.csv",
            Array("ok,".utf8) + [0xFF] + Array("\n\"x\ny".utf8) + [0xC0, 0x80] + Array("\",z\né,".utf8) + [0xE6, 0x97]
        ),
        ("utf16.csv", [0xFF, 0xFE, 0x61, 0x00]),
        ("utf16-without-mark.csv", utf16Bytes("a,b\n1,2\n")),
        ("quote-cr.csv", Array("\"a\r\"\nb\r".utf8)),
        ("empty.csv", []),
        ("windows-1252.csv", Array("a,\"caf".utf8) + [0xE9, 0x0A, 0x80] + Array("\"\r\n1,O".utf8) + [0x92, 0x0A]),
        ("unicode-text.txt", [0xFF, 0xFE] + utf16Bytes("Tag\tNote\r\n1\t\"😀\té\"\r\n2\t日本\r\n")),
        ("unicode-text-be.txt", [0xFE, 0xFF] + utf16Bytes("Tag\tNote\n1\t😀", bigEndian: true) + [0xD8]),
    ]

    @Test(arguments: [1, 2, 3, 7])
    func tinyChunksGiveSameResults(chunkSize: Int) {
        for fixture in Self.fixtures {
            let whole = readCSV(fixture.bytes, name: fixture.name)
            let chunked = readCSV(fixture.bytes, name: fixture.name, chunkSize: chunkSize)
            #expect(chunked == whole, "\(fixture.name) with chunk size \(chunkSize)")
        }
    }

    @Test func randomTextsGiveSameResultsInAnyChunks() {
        // Byte soup made of the bytes the tokenizer treats specially, plus UTF-8 pieces and invalid bytes.
        let alphabet: [[UInt8]] = [
            [0x61], [0x2C], [0x22], [0x22, 0x22], [0x0D], [0x0A], [0x0D, 0x0A], [0x09], [0x3B], [0xC3, 0xA9],
            [0xE6, 0x97, 0xA5], [0xFF], [0xEF, 0xBB, 0xBF],
        ]
        var generator = CSVTestRandomGenerator(seed: 4180)
        var differingTexts: [[UInt8]] = []
        var recordCount = 0
        for _ in 0..<400 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                bytes += alphabet.randomElement(using: &generator)!
            }
            let whole = readCSV(bytes, name: "random.csv")
            recordCount += whole.records.count
            for chunkSize in [1, 2, 3, 7] where readCSV(bytes, name: "random.csv", chunkSize: chunkSize) != whole {
                differingTexts.append(bytes)
                break
            }
        }
        #expect(differingTexts == [])
        #expect(recordCount > 400)
    }

    /// What the tokenizer before sliced fields (`ReferenceCSVTokenizer`) gives for `bytes`, with the delimiter and
    /// byte-order mark the reader found.
    func referenceResult(_ bytes: [UInt8], like result: CSVReadResult) -> CSVReadResult {
        var reference = CSVReadResult(delimiter: result.delimiter, hadByteOrderMark: result.hadByteOrderMark)
        var tokenizer = ReferenceCSVTokenizer(delimiter: result.delimiter, fileName: "random.csv")
        let text = Array(bytes.dropFirst(result.hadByteOrderMark ? 3 : 0))
        let collect = { (record: CSVReadRecord, fields: [[UInt8]]) in
            reference.records.append(record)
            reference.fieldBytes.append(fields)
        }
        text.withUnsafeBufferPointer { tokenizer.consume($0, collect) }
        do {
            try tokenizer.finish(collect)
        } catch {
            reference.error = error as? CSVError
        }
        reference.lineEnding = tokenizer.lineEnding
        return reference
    }

    /// Fields are slices of the chunk they were read in, copied only when a chunk ends inside their record or
    /// their text is not one run of bytes; in every case the reader gives what the copying tokenizer gave.
    @Test func randomTextsGiveWhatTheCopyingTokenizerGave() {
        let alphabet: [[UInt8]] = [
            [0x61], [0x62, 0x63, 0x64], [0x2C], [0x2C], [0x22], [0x22, 0x22], [0x0D], [0x0A], [0x0D, 0x0A], [0x09],
            [0x3B], [0xC3, 0xA9], [0xE6, 0x97, 0xA5], [0xFF], [0xEF, 0xBB, 0xBF], [0x22, 0x61, 0x2C, 0x0A, 0x22],
        ]
        var generator = CSVTestRandomGenerator(seed: 61_202)
        var differing: [String] = []
        var recordCount = 0
        for _ in 0..<600 {
            var bytes: [UInt8] = Bool.random(using: &generator) ? EncodingSniffer.utf8ByteOrderMark : []
            for _ in 0..<Int.random(in: 0...80, using: &generator) {
                bytes += alphabet.randomElement(using: &generator)!
            }
            for chunkSize in [1, 2, 5, 16, 1 << 20] {
                // The reference tokenizer reads UTF-8 only, reporting what is not per field.
                let result = readCSV(bytes, name: "random.csv", chunkSize: chunkSize, encoding: .utf8)
                recordCount += result.records.count
                if result != referenceResult(bytes, like: result) {
                    differing.append("\(bytes) in chunks of \(chunkSize)")
                }
            }
        }
        #expect(differing == [])
        #expect(recordCount > 5000)
    }

    /// Unquoted text is scanned eight bytes at a time: long runs of plain bytes, delimiters at every offset of a
    /// word, control bytes that are text (those below CR and just above it), bytes with their top bit set (UTF-8 and
    /// not) on either side of a delimiter, and quotes just after a delimiter at a word's end read as the copying
    /// tokenizer read them, with commas or tabs, in any chunks.
    @Test func unquotedRunsGiveWhatTheCopyingTokenizerGave() {
        let alphabet: [[UInt8]] = [
            [0x61], [0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68], [0x69, 0x6A, 0x6B], [0x2C], [0x2C], [0x2C], [0x09],
            [0x09], [0x01], [0x0B], [0x0C], [0x0E], [0x1F], [0x7F], [0x80], [0xFF], [0xC3, 0xA9],
            [0xE6, 0x97, 0xA5], [0x0A], [0x0D, 0x0A], [0x0D], [0x22], [0x22, 0x78, 0x22], [0x2C, 0x22, 0x79, 0x22],
        ]
        var generator = CSVTestRandomGenerator(seed: 80_808)
        var differing: [String] = []
        var recordCount = 0
        var problemCount = 0
        for trial in 0..<500 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...160, using: &generator) {
                // Mostly plain text, so that words of eight plain bytes and fields spanning words are common.
                bytes +=
                    Int.random(in: 0..<3, using: &generator) == 0
                    ? alphabet.randomElement(using: &generator)! : alphabet[Int.random(in: 0...2, using: &generator)]
            }
            let delimiter: Delimiter = trial % 2 == 0 ? .comma : .tab
            for chunkSize in [8, 9, 13, 64, 1 << 20] {
                let result = readCSV(
                    bytes, name: "random.csv", delimiter: delimiter, chunkSize: chunkSize, encoding: .utf8)
                recordCount += result.records.count
                problemCount += result.records.reduce(0) { $0 + $1.problems.count }
                if result != referenceResult(bytes, like: result) {
                    differing.append("\(bytes) in chunks of \(chunkSize)")
                }
            }
        }
        #expect(differing == [])
        #expect(recordCount > 5000)
        #expect(problemCount > 1000)
    }

    @Test func fixturesHaveExpectedRecordCounts() {
        let counts = Self.fixtures.map { readCSV($0.bytes, name: $0.name).records.count }
        #expect(counts == [3, 2, 3, 2, 3, 5, 2, 3, 3, 3, 2, 2, 2, 1, 1, 3, 1, 0, 2, 0, 2, 3, 2])
    }
}

@Suite("CSVReader encodings")
struct CSVReaderEncodingTests {
    /// A sheet Excel on Windows saved as "CSV": é, € and ’ are single Windows-1252 bytes.
    static let windows1252: [UInt8] =
        Array("Tag,Model\n1,caf".utf8) + [0xE9] + Array("\n2,".utf8) + [0x80] + Array("5\n3,O".utf8) + [0x92]
        + Array("Neil\n".utf8)

    @Test(arguments: [1, 3, 1 << 20])
    func textThatIsNotUTF8IsReadAsWindows1252(chunkSize: Int) {
        var reader = CSVReader(bytes: Self.windows1252, name: "survey.csv", delimiter: nil, chunkSize: chunkSize)
        let result = readAllCSV(&reader)
        #expect(result.error == nil)
        #expect(
            result.records == [
                CSVReadRecord(line: 1, lineCount: 1, fields: ["Tag", "Model"]),
                CSVReadRecord(line: 2, lineCount: 1, fields: ["1", "café"]),
                CSVReadRecord(line: 3, lineCount: 1, fields: ["2", "€5"]),
                CSVReadRecord(line: 4, lineCount: 1, fields: ["3", "O’Neil"]),
            ])
        #expect(reader.encoding == .windows1252)
    }

    @Test func anInvalidByteFarPastTheSampleStillMakesItWindows1252() {
        let bytes = Array(String(repeating: "100001,ok\n", count: 1000).utf8) + Array("2,caf".utf8) + [0xE9, 0x0A]
        var reader = CSVReader(bytes: bytes, name: "survey.csv", delimiter: nil, chunkSize: 4096)
        let result = readAllCSV(&reader)
        #expect(reader.encoding == .windows1252)
        #expect(result.records.last?.fields == ["2", "café"])
        #expect(result.records.allSatisfy { $0.problems.isEmpty })
    }

    @Test func utf8CutAcrossChunksStaysUTF8() {
        let text = String(repeating: "café,日本,😀\n", count: 700)
        var reader = CSVReader(bytes: Array(text.utf8), name: "survey.csv", delimiter: nil, chunkSize: 4099)
        let result = readAllCSV(&reader)
        #expect(reader.encoding == .utf8)
        #expect(result.records.count == 700)
        #expect(result.records.allSatisfy { $0.fields == ["café", "日本", "😀"] })
    }

    @Test(arguments: [false, true])
    func utf16WithByteOrderMarkIsReadAsUnicodeText(bigEndian: Bool) {
        let text = "Tag\tModel\r\n100001\tcafé 日本\r\n100002\tO’Neil\r\n"
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in text.utf16 {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        for chunkSize in [1, 1 << 20] {
            var reader = CSVReader(bytes: bytes, name: "Unicode Text.txt", delimiter: nil, chunkSize: chunkSize)
            let result = readAllCSV(&reader)
            #expect(result.error == nil)
            #expect(
                result.records.map(\.fields) == [["Tag", "Model"], ["100001", "café 日本"], ["100002", "O’Neil"]])
            #expect(reader.delimiter == .tab)
            #expect(reader.encoding == (bigEndian ? .utf16BigEndian : .utf16LittleEndian))
        }
    }

    @Test func aFileValidUTF8ForItsFirstMegabyteAndNotLaterIsWindows1252Throughout() throws {
        // The decision is made once, from the whole file: no record is read as UTF-8 and then the rest otherwise.
        let folder = TemporaryFolder()
        let head = "Tag,Model\n" + String(repeating: "100001,café\n", count: 100_000)
        let path = folder.write(Array(head.utf8) + Array("100002,caf".utf8) + [0xE9, 0x0A], to: "late.csv")
        var reader = try CSVReader(path: path)
        let result = readAllCSV(&reader)
        #expect(reader.encoding == .windows1252)
        #expect(result.records.count == 100_002)
        #expect(result.records[1].fields == ["100001", "cafÃ©"], "the UTF-8 é is two Windows-1252 characters")
        #expect(result.records.last?.fields == ["100002", "café"])
        #expect(result.records.allSatisfy { $0.problems.isEmpty })
    }

    @Test(arguments: [1, 2, 3, 1 << 20])
    func aUTF16FileOfOddLengthEndsWithAReplacementCharacter(chunkSize: Int) {
        let bytes = [0xFF, 0xFE] + utf16Bytes("Tag\tNote\n1\t😀x") + [0x41]
        let result = readCSV(bytes, name: "odd.txt", chunkSize: chunkSize)
        #expect(result.records.map(\.fields) == [["Tag", "Note"], ["1", "😀x\u{FFFD}"]])
        #expect(result.encoding == .utf16LittleEndian)
    }

    @Test func aSetEncodingIsUsedForTextWithoutAByteOrderMark() {
        let utf8 = Array("Tag,Model\n1,café\n".utf8)
        // Forcing means forcing: UTF-8 read as Windows-1252 is mojibake, not an error.
        let forced = readCSV(utf8, encoding: .windows1252)
        #expect(forced.encoding == .windows1252)
        #expect(forced.records.last?.fields == ["1", "cafÃ©"])
        // Windows-1252 read as UTF-8 reports the damaged cell, as before this setting existed.
        let damaged = readCSV(Self.windows1252, encoding: .utf8)
        #expect(damaged.encoding == .utf8)
        #expect(damaged.records[1].fields == ["1", "caf\u{FFFD}"])
        #expect(damaged.records[1].problems == [CSVFieldProblem(kind: .invalidUTF8, field: 1, line: 2)])
        // UTF-16 without a byte-order mark, refused when it is not set, is read when it is.
        let little = utf16Bytes("Tag\tModel\n1\t日本\n")
        #expect(
            readCSV(little).error
                == .unsupportedEncoding(file: "test.csv", encoding: "UTF-16 LE without a byte-order mark"))
        for chunkSize in [1, 3, 1 << 20] {
            let read = readCSV(little, chunkSize: chunkSize, encoding: .utf16LittleEndian)
            #expect(read.error == nil)
            #expect(read.records.map(\.fields) == [["Tag", "Model"], ["1", "日本"]])
            let big = readCSV(
                utf16Bytes("Tag\tModel\n1\t日本\n", bigEndian: true), chunkSize: chunkSize, encoding: .utf16BigEndian)
            #expect(big.records.map(\.fields) == [["Tag", "Model"], ["1", "日本"]])
        }
    }

    @Test func aByteOrderMarkWinsOverTheSetting() {
        let utf8 = readCSV(EncodingSniffer.utf8ByteOrderMark + Array("Tag\ncafé\n".utf8), encoding: .windows1252)
        #expect(utf8.encoding == .utf8)
        #expect(utf8.records.last?.fields == ["café"])
        let utf16 = readCSV([0xFE, 0xFF] + utf16Bytes("Tag\ncafé\n", bigEndian: true), encoding: .utf16LittleEndian)
        #expect(utf16.encoding == .utf16BigEndian)
        #expect(utf16.records.last?.fields == ["café"])
        let set8 = readCSV([0xFF, 0xFE] + utf16Bytes("Tag\ncafé\n"), encoding: .utf8)
        #expect(set8.encoding == .utf16LittleEndian)
        #expect(set8.records.last?.fields == ["café"])
    }

    @Test func utf32IsRefusedWhateverTheSetting() {
        for encoding in [nil] + TextEncoding.allCases.map(Optional.some) {
            #expect(
                readCSV([0xFF, 0xFE, 0, 0, 0x61, 0, 0, 0], name: "wide.txt", encoding: encoding).error
                    == .unsupportedEncoding(file: "wide.txt", encoding: "UTF-32 LE"))
        }
    }

    // MARK: Limits and hostile bytes

    /// Reads `text` with `limits`, cut into chunks of `chunkSize` bytes.
    func readLimited(_ text: String, limits: ReadLimits, chunkSize: Int) -> CSVReadResult {
        var reader = CSVReader(bytes: Array(text.utf8), name: "test.csv", delimiter: nil, chunkSize: chunkSize)
        reader.limits = limits
        return readAllCSV(&reader)
    }

    @Test(arguments: [1, 2, 3, 7, 1 << 20])
    func aFieldOfTheLimitIsReadAndOneByteMoreIsRefusedNamingLineAndColumn(chunkSize: Int) {
        let limits = ReadLimits(maxFieldBytes: 10)
        // Unquoted, quoted, and quoted with an escaped quote: 10 bytes each once unescaped.
        let fitting = readLimited("a,b\n1,0123456789\n2,\"01234\"\"678\"\n", limits: limits, chunkSize: chunkSize)
        #expect(fitting.error == nil)
        #expect(fitting.records.map(\.fields) == [["a", "b"], ["1", "0123456789"], ["2", "01234\"678"]])
        for text in ["a,b\n1,01234567890\n", "a,b\n1,\"01234567890\"\n", "a,b\n1,\"012\"\"3456789\"\n"] {
            let result = readLimited(text, limits: limits, chunkSize: chunkSize)
            #expect(result.error == .fieldTooLong(file: "test.csv", line: 2, column: 2, limit: 10), "\(text)")
            #expect(result.records.map(\.fields) == [["a", "b"]], "nothing of the long row is delivered")
        }
        // A quoted field over several lines is named by the line its row starts on.
        let spanning = readLimited("a,b\n1,\"0123\n4567\n890\"\n", limits: limits, chunkSize: chunkSize)
        #expect(spanning.error == .fieldTooLong(file: "test.csv", line: 2, column: 2, limit: 10))
        #expect(
            spanning.error?.description
                == "test.csv: the field in column 2 of the row on line 2 is longer than 10 bytes, so the file is not "
                + "read. Check that it is the spreadsheet you meant; if the field is real, raise rules.maxFieldBytes "
                + "in the account's account.json.")
    }

    /// An unquoted field one byte past the limit is refused wherever in an eight-byte word it starts and its limit
    /// falls, and one of the limit is read.
    @Test(arguments: [8, 13, 1 << 20])
    func anUnquotedFieldPastTheLimitIsRefusedAtEveryOffsetOfAWord(chunkSize: Int) {
        let limits = ReadLimits(maxFieldBytes: 12)
        for offset in 0...12 {
            for length in 10...14 {
                let before = String(repeating: "x", count: offset)
                let field = String(repeating: "y", count: length)
                let result = readLimited("a,b,c\n\(before),\(field),z\n", limits: limits, chunkSize: chunkSize)
                if length > 12 {
                    #expect(result.error == .fieldTooLong(file: "test.csv", line: 2, column: 2, limit: 12))
                    #expect(result.records.map(\.fields) == [["a", "b", "c"]])
                } else {
                    #expect(result.error == nil)
                    #expect(result.records.map(\.fields) == [["a", "b", "c"], [before, field, "z"]])
                }
            }
        }
    }

    @Test(arguments: [1, 5, 1 << 20])
    func aRowLongerThanSixteenFieldsOfTheLimitIsRefused(chunkSize: Int) {
        let limits = ReadLimits(maxFieldBytes: 4)
        #expect(limits.maxRowBytes == 64)
        // 16 fields of 4 bytes and 15 commas: 79 bytes, more than 64, though each field is within its limit.
        let row = Array(repeating: "abcd", count: 16).joined(separator: ",")
        let result = readLimited("h\n\(row)\nx\n", limits: limits, chunkSize: chunkSize)
        #expect(result.error == .rowTooLong(file: "test.csv", line: 2, limit: 64))
        #expect(
            result.error?.description
                == "test.csv: the row on line 2 is longer than 64 bytes in all (16 times rules.maxFieldBytes), so the "
                + "file is not read. Check that it is the spreadsheet you meant; if the row is real, raise "
                + "rules.maxFieldBytes in the account's account.json.")
        let fitting = Array(repeating: "abc", count: 16).joined(separator: ",")
        #expect(readLimited("h\n\(fitting)\n", limits: limits, chunkSize: chunkSize).error == nil)
    }

    @Test(arguments: [1, 4, 1 << 20])
    func aRowWiderThanTheColumnLimitIsRefused(chunkSize: Int) {
        let limits = ReadLimits(maxColumns: 4)
        #expect(readLimited("a,b,c,d\n1,2,3,4\n,,,\n", limits: limits, chunkSize: chunkSize).error == nil)
        let result = readLimited("a,b,c,d\n1,2,3,4\n1,2,3,4,\n", limits: limits, chunkSize: chunkSize)
        #expect(result.error == .tooManyColumns(file: "test.csv", line: 3, limit: 4))
        #expect(result.records.count == 2)
    }

    /// The issue's row of a million columns (1,000,000 commas, 1 MB): refused at Excel's limit, the 16,385th field.
    @Test func aRowOfAMillionColumnsIsRefusedAtExcelsLimit() {
        let text = "Tag,Model\n1,AP\n" + String(repeating: ",", count: 1_000_000) + "\n"
        let result = readCSV(text)
        #expect(result.error == .tooManyColumns(file: "test.csv", line: 3, limit: 16_384))
        #expect(
            result.error?.description
                == "test.csv: the row on line 3 has more than 16384 columns, more than a spreadsheet can hold, so the "
                + "file is not read. Check that it is the spreadsheet you meant and save it again.")
        let widest = "Tag\n" + String(repeating: ",", count: 16_383) + "1\n"
        #expect(readCSV(widest).error == nil)
    }

    /// The tokenizer lists a record's fields in room for 64 that doubles when full: a record of 200 fields, some
    /// quoted and some with an escaped quote, keeps every one in order, whether it ends in its chunk or is copied
    /// across chunks, and the records after it start from an empty list.
    @Test(arguments: [1, 7, 1 << 20])
    func aRecordWiderThanTheFirstRoomForFieldsKeepsEveryField(chunkSize: Int) {
        let cells = (0..<200).map { $0 % 5 == 4 ? "c\"\($0)" : "c\($0)" }
        let written = cells.enumerated().map { index, cell in
            index % 5 == 4 ? "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : cell
        }
        let text = "h\n" + written.joined(separator: ",") + "\nx,y\n" + written.joined(separator: ",")
        let result = readCSV(text, chunkSize: chunkSize)
        #expect(result.error == nil)
        #expect(result.records.map(\.fields) == [["h"], cells, ["x", "y"], cells])
    }

    @Test(arguments: [1, 3, 1 << 20])
    func aNULByteIsRefusedAsBinary(chunkSize: Int) {
        // In an unquoted field, in a quoted one on its second line, alone on a line.
        for (text, line) in [
            ("Tag,Model\n1,A\u{0}P\n", 2), ("Tag,Model\n1,\"A\n\u{0}\"\n", 3), ("Tag,Model\n1,AP\n\u{0}\n", 3),
        ] {
            let result = readCSV(Array(text.utf8), chunkSize: chunkSize)
            #expect(result.error == .binaryContent(file: "test.csv", line: line), "\(text.debugDescription)")
        }
        #expect(
            CSVError.binaryContent(file: "test.csv", line: 2).description
                == "test.csv: line 2 holds a NUL byte, so the file is binary, not a sheet saved as text, and it is not "
                + "read. Check that it is the spreadsheet you meant and save it as \"CSV UTF-8\".")
    }

    /// UTF-16 text is half NUL bytes; converted to UTF-8 first, it has none and reads as before.
    @Test func utf16TextWithItsNULBytesStillReads() {
        for chunkSize in [1, 3, 1 << 20] {
            let result = readCSV(
                [0xFF, 0xFE] + utf16Bytes("Tag\tModel\n1\tAP\n"), name: "unicode.txt", chunkSize: chunkSize)
            #expect(result.error == nil)
            #expect(result.records.map(\.fields) == [["Tag", "Model"], ["1", "AP"]])
        }
    }

    @Test func anHTMLPageIsRefusedAsAWebPage() {
        for page in [
            "<!DOCTYPE html>\n<html><body>Sign in</body></html>\n", "\r\n  <HTML lang=\"en\"><head></head></html>",
            "\u{FEFF}<html>", "<head><title>502</title></head>",
        ] {
            #expect(
                readCSV(page, name: "central.csv").error == .webPage(file: "central.csv"), "\(page.debugDescription)")
        }
        #expect(
            CSVError.webPage(file: "central.csv").description
                == "central.csv: the file is a web page (HTML), not a spreadsheet, so it is not read; it may be a "
                + "sign-in or error page saved in the sheet's place. Download the sheet again as \"CSV UTF-8\" or "
                + ".xlsx.")
        // A sheet whose first cell merely starts with "<" is a sheet.
        #expect(readCSV("<Tag>,Model\n1,AP\n").error == nil)
        #expect(readCSV("Tag,Notes\n1,<html>\n").error == nil)
    }

    /// A record of unquoted fields read from one chunk carries its text, the fields joined by single delimiters, so
    /// its fingerprint is taken in place; a record with a quoted field, or cut by a chunk's end, does not. Either
    /// way the fingerprint is that of its fields: a row repeated with a cell quoted is the same row.
    @Test(arguments: [1, 7, 1 << 20])
    func recordsOfUnquotedFieldsCarryTheirTextAndFingerprintAsTheirFields(chunkSize: Int) throws {
        var text = "a,b,c\r\n1,,x y\n\"1\",,x y\n,,\n4,\"q,r\",z\n5,ab\"c,6\n\"\"\"\",\"e\"\"f\",g\n"
        for index in 0..<30 { text += "\(index),row \(index),\(String(repeating: "w", count: index))\n" }
        var runs = 0
        var fingerprints: [RowFingerprint] = []
        var reader = CSVReader(bytes: Array(text.utf8), name: "runs.csv", delimiter: .comma, chunkSize: chunkSize)
        try reader.forEachRecord { record in
            let fields = (0..<record.count).map { Array(record[$0]) }
            if let run = record.run {
                runs += 1
                #expect(run.delimiter == UInt8(ascii: ","))
                #expect(Array(run.bytes) == Array(fields.joined(separator: [UInt8(ascii: ",")])))
            }
            #expect(record.fingerprint == RowFingerprintTests.fingerprint(cells: fields))
            // The tokenizer refuses NUL bytes, so its records need not be searched for one.
            #expect(!record.mayHoldNUL)
            fingerprints.append(record.fingerprint)
        }
        #expect(fingerprints.count == 37)
        // `1,,x y` and `"1",,x y` are the same cells.
        #expect(fingerprints[1] == fingerprints[2])
        #expect(Set(fingerprints).count == 36)
        // A record has its run when no field of it opens with a quote (a stray quote inside a field is text) and no
        // chunk ends inside it, between its first byte and the CR or LF that ends it (a chunk ending just after that
        // byte leaves the record whole). In this text a quote opens a field exactly when it starts the line or
        // follows a comma.
        let bytes = Array(text.utf8)
        var expected = 0
        var start = 0
        for (offset, byte) in bytes.enumerated() where byte == ASCII.lineFeed {
            let end = offset > start && bytes[offset - 1] == ASCII.carriageReturn ? offset - 1 : offset
            let quoted = (start..<end).contains { bytes[$0] == ASCII.quote && ($0 == start || bytes[$0 - 1] == 0x2C) }
            if !quoted && start / chunkSize == end / chunkSize { expected += 1 }
            start = offset + 1
        }
        #expect(runs == expected)
        #expect(expected == (chunkSize == 1 ? 0 : chunkSize == 7 ? 3 : 34))
    }
}
