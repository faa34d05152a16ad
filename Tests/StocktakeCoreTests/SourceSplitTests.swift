import Testing

@testable import StocktakeCore

struct SourceSplitTests {
    let reader = SourceReader(mapping: .builtIn)
    let file = SourceFile(path: "scan.csv", role: .sighting)

    /// Everything a read gives, as text to compare, or the message of the error that stopped it.
    static func outcome(_ read: () throws(StocktakeError) -> SourceData) -> [String] {
        let data: SourceData
        do {
            data = try read()
        } catch {
            return ["error: \(error)"]
        }
        var lines = [
            "rows \(data.rowCount), header line \(data.headerLine), delimiter \(data.delimiter), "
                + "BOM \(data.hadByteOrderMark), line ending \(data.lineEnding ?? "none"), "
                + "omitted \(data.omittedIssues)",
            "header \(data.layout.parsedHeader)",
        ]
        for (index, record) in data.records.enumerated() {
            let texts = CanonicalField.allCases.map { record.values.text($0) }
            lines.append("record \(index): row \(record.row), line \(record.line), \(texts)")
        }
        lines += data.issues.map { "issue \($0)" }
        lines += data.repeatedRows.map { "repeated \($0)" }
        return lines
    }

    /// What one pass gives.
    func single(_ bytes: [UInt8], name: String = "scan.csv") -> [String] {
        Self.outcome { () throws(StocktakeError) in
            var csv = CSVReader(bytes: bytes, name: name)
            return try reader.read(file, from: &csv)
        }
    }

    /// What reading in parts starting at `cuts` gives, the parts read in a shuffled order.
    func split(
        _ bytes: [UInt8], name: String = "scan.csv", cuts: [Int], atLineBreaks: Bool, chunkSize: Int,
        using generator: inout CSVTestRandomGenerator
    ) -> (outcome: [String], parts: Int) {
        let split = SourceSplit(
            file: file, reader: reader, bytes: bytes, name: name, cuts: cuts, atLineBreaks: atLineBreaks,
            chunkSize: chunkSize)
        var parts: [SourceSplit.Part?] = Array(repeating: nil, count: split.partCount)
        for index in (0..<split.partCount).shuffled(using: &generator) { parts[index] = split.readPart(index) }
        let read = parts.map { $0! }
        return (Self.outcome { () throws(StocktakeError) in try split.join(read) }, split.partCount)
    }

    /// A random sheet made of what makes splitting hard: quoted fields holding CR, LF and CRLF, `""` escapes,
    /// stray quotes, bytes that are not UTF-8, blank lines, rows of empty cells, ragged rows, rows repeated
    /// exactly (near and far), rows without an identifier, invalid identifiers, and all three line ends mixed.
    static func randomSheet(using generator: inout CSVTestRandomGenerator) -> [UInt8] {
        let endings = ["\n", "\r\n", "\r"]
        func ending() -> String { endings.randomElement(using: &generator)! }
        let cells = [
            "1", "22", "333", "VT-4444", "x9", "", "N/A", "\"5\"", "AP-515", "ap 515", "\"Aruba, AP\"",
            "\"two\nlines\"", "\"two\r\nlines\"", "\"two\rlines\"", "\"say \"\"hi\"\"\"", "ab\"c", "\"q\"tail",
            "\"\n\"", "\"\r\n,\r\n\"", "caf\u{E9}", "\u{FFFD}", "room  101", "\"\"",
        ]
        var text = Bool.random(using: &generator) ? "\u{FEFF}" : ""
        if Bool.random(using: &generator) { text += ending() }
        text += "Tag,Serial,Model,Description,Room" + ending()
        var rows: [String] = []
        for _ in 0..<Int.random(in: 5...60, using: &generator) {
            switch Int.random(in: 0..<20, using: &generator) {
            case 0: text += ending()
            case 1: text += ",,,," + ending()
            case 2 where !rows.isEmpty, 3 where !rows.isEmpty:
                text += rows.randomElement(using: &generator)!
            default:
                let width =
                    Int.random(in: 0..<10, using: &generator) == 0 ? Int.random(in: 1...7, using: &generator) : 5
                var row = (0..<width).map { _ in cells.randomElement(using: &generator)! }.joined(separator: ",")
                if Int.random(in: 0..<8, using: &generator) == 0 {
                    row = String(Int.random(in: 1...9, using: &generator))
                }
                row += ending()
                rows.append(row)
                text += row
            }
        }
        var bytes = Array(text.utf8)
        // A byte that is not UTF-8 here and there.
        for _ in 0..<Int.random(in: 0...2, using: &generator) where bytes.count > 40 {
            let index = Int.random(in: 40..<bytes.count, using: &generator)
            if bytes[index] >= 0x61 && bytes[index] <= 0x7A { bytes[index] = 0xFF }
        }
        if Bool.random(using: &generator), let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        return bytes
    }

    @Test func randomSheetsCutAnywhereGiveWhatOnePassGives() {
        var generator = CSVTestRandomGenerator(seed: 20_260_901)
        var differing: [String] = []
        var splitCount = 0
        for sheet in 0..<400 {
            let bytes = Self.randomSheet(using: &generator)
            let whole = single(bytes)
            for _ in 0..<6 {
                let cuts = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                    Int.random(in: 0...bytes.count, using: &generator)
                }
                let atLineBreaks = Bool.random(using: &generator)
                let chunkSize = [1, 3, 7, 64, 1 << 20].randomElement(using: &generator)!
                let result = split(
                    bytes, cuts: cuts, atLineBreaks: atLineBreaks, chunkSize: chunkSize, using: &generator)
                if result.parts > 1 { splitCount += 1 }
                if result.outcome != whole {
                    differing.append("sheet \(sheet) \(bytes) cuts \(cuts) \(atLineBreaks) chunk \(chunkSize)")
                }
            }
        }
        #expect(differing == [])
        #expect(splitCount > 1500)
    }

    @Test func aQuotedFieldHoldingLineBreaksAcrossTheCutIsReadWhole() {
        let text =
            "Tag,Description\r\n1,one\r\n2,\"first line\nsecond line\r\nthird line\rfourth\"\r\n3,three\n1,one\r\n"
        let bytes = Array(text.utf8)
        let whole = single(bytes)
        #expect(whole.contains { $0.hasPrefix("record 1: row 2, line 3,") && $0.contains(#"first line\nsecond"#) })
        #expect(whole.contains { $0.hasPrefix("repeated RepeatedRow(row: 4, line: 8, firstRecordIndex: 0") })
        var generator = CSVTestRandomGenerator(seed: 1)
        // Every cut inside the quoted field: at its line breaks (the start looks like a record) and between them.
        let quoteStart =
            text.utf8.count - "first line\nsecond line\r\nthird line\rfourth\"\r\n3,three\n1,one\r\n".utf8.count
        for cut in quoteStart..<bytes.count {
            for atLineBreaks in [true, false] {
                for chunkSize in [2, 1 << 20] {
                    let result = split(
                        bytes, cuts: [cut], atLineBreaks: atLineBreaks, chunkSize: chunkSize, using: &generator)
                    #expect(result.outcome == whole, "cut at \(cut), line breaks \(atLineBreaks), chunk \(chunkSize)")
                }
            }
        }
    }

    @Test func aRowRepeatedInALaterPartIsARepeatOfTheFirstOccurrence() {
        let text = "Tag,Model\n1,a\n2,b\n1,a\n3,c\n2,b\n1,a\n4,x\n"
        let bytes = Array(text.utf8)
        var generator = CSVTestRandomGenerator(seed: 2)
        let result = split(
            bytes, cuts: [14, 18, 22, 26, 30], atLineBreaks: false, chunkSize: 1 << 20, using: &generator)
        #expect(result.parts == 6)
        #expect(result.outcome == single(bytes))
        #expect(
            result.outcome.filter { $0.hasPrefix("repeated") } == [
                "repeated RepeatedRow(row: 3, line: 4, firstRecordIndex: 0, firstRow: 1)",
                "repeated RepeatedRow(row: 5, line: 6, firstRecordIndex: 1, firstRow: 2)",
                "repeated RepeatedRow(row: 6, line: 7, firstRecordIndex: 0, firstRow: 1)",
            ])
        #expect(result.outcome.filter { $0.hasPrefix("record") }.count == 4)
    }

    @Test func anUnterminatedQuoteInALaterPartNamesItsLineInTheFile() {
        let bytes = Array("Tag,Model\n1,a\n2,b\r\n3,c\r4,\"open\n5,d\n".utf8)
        var generator = CSVTestRandomGenerator(seed: 3)
        let whole = single(bytes)
        #expect(whole.count == 1 && whole[0].contains("a quoted field opened on line 5 is never closed"))
        for cut in 11..<bytes.count {
            let result = split(bytes, cuts: [cut], atLineBreaks: false, chunkSize: 3, using: &generator)
            #expect(result.outcome == whole, "cut at \(cut)")
        }
    }

    /// What reading in parts with `limits` gives, the parts read in order.
    func split(_ bytes: [UInt8], cuts: [Int], limits: ReadLimits) -> [String] {
        var limited = reader
        limited.limits = limits
        let split = SourceSplit(
            file: file, reader: limited, bytes: bytes, name: "scan.csv", cuts: cuts, atLineBreaks: false, chunkSize: 3)
        let parts = (0..<split.partCount).map { split.readPart($0) }
        return Self.outcome { () throws(StocktakeError) in try split.join(parts) }
    }

    @Test func aFieldPastTheLimitInALaterPartNamesItsLineInTheFile() {
        let bytes = Array("Tag,Model\n1,a\n2,b\r\n3,c\r4,\"012345\n6789\"\n5,d\n".utf8)
        let limits = ReadLimits(maxFieldBytes: 10)
        let expected = [
            "error: scan.csv: the field in column 2 of the row on line 5 is longer than 10 bytes, so the file is not "
                + "read. Check that it is the spreadsheet you meant; if the field is real, raise rules.maxFieldBytes in "
                + "the account's account.json."
        ]
        for cut in 11..<bytes.count {
            #expect(split(bytes, cuts: [cut], limits: limits) == expected, "cut at \(cut)")
        }
    }

    /// The parts of a file count their rows together: three parts of two rows each pass a limit of 6, not of 5.
    @Test func theRowsOfAllPartsCountAgainstTheLimit() {
        let bytes = Array("Tag\n1\n2\n3\n4\n5\n6\n".utf8)
        let cuts = [8, 12]
        #expect(split(bytes, cuts: cuts, limits: ReadLimits(maxRows: 6)).first?.hasPrefix("rows 6,") == true)
        #expect(
            split(bytes, cuts: cuts, limits: ReadLimits(maxRows: 5)) == [
                "error: scan.csv: the file has more than 5 rows, so it is not read. Check that it is the spreadsheet "
                    + "you meant; if it is, raise rules.maxRows in the account's account.json (and rules.maxMemoryMB "
                    + "with it)."
            ])
        // A part that did not start at a row is read again; its rows are not counted twice.
        #expect(split(bytes, cuts: [9, 13], limits: ReadLimits(maxRows: 6)).first?.hasPrefix("rows 6,") == true)
    }

    @Test func tabSeparatedSheetsAndAByteOrderMarkSplitToo() {
        let bytes = Array("\u{FEFF}Tag\tModel\r\n1\ta\r\n2\tb\r\n3\t\"c\r\nd\"\r\n1\ta\r\n".utf8)
        var generator = CSVTestRandomGenerator(seed: 4)
        let whole = single(bytes, name: "scan.tsv")
        #expect(whole.first?.contains("delimiter tab, BOM true, line ending CRLF") == true)
        for cut in 0..<bytes.count {
            let result = split(
                bytes, name: "scan.tsv", cuts: [cut], atLineBreaks: cut % 2 == 0, chunkSize: 5, using: &generator)
            #expect(result.outcome == whole, "cut at \(cut)")
        }
    }

    @Test func aFileOnDiskIsCutAtLineBreaksAndReadTheSame() {
        let folder = TemporaryFolder()
        var text = "VT Tag,Serial,Description\n"
        for number in 0..<20_000 {
            text += "\(number % 15_000),S\(number % 15_000),\"desc \(number % 15_000 % 7)\nsecond line\"\r\n"
        }
        let path = folder.write(text, to: "big.csv")
        let split = SourceSplit(file: SourceFile(path: path, role: .register), reader: reader, partSize: 200_000)
        #expect(split.partCount == 4)
        let parts = (0..<split.partCount).map { split.readPart($0) }
        let joined = Self.outcome { () throws(StocktakeError) in try split.join(parts) }
        let whole = Self.outcome { () throws(StocktakeError) in
            try reader.read(SourceFile(path: path, role: .register))
        }
        #expect(joined == whole)
        #expect(joined.filter { $0.hasPrefix("repeated") }.count == 5000)
    }
}
