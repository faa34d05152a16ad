import Testing

@testable import StocktakeCore

@Suite struct RawSheetTests {
    /// The cells of every record as `RawSheet` finds them, and as `CSVReader` reads them.
    private func cells(_ text: String, delimiter: Delimiter = .comma) -> (raw: [[String]], read: [[String]]) {
        let bytes = Array(text.utf8)
        var reader = CSVReader(bytes: bytes, name: "sheet.csv", delimiter: delimiter)
        let read = readAllCSV(&reader)
        let sheet = RawSheet(bytes: bytes, start: read.hadByteOrderMark ? 3 : 0, delimiter: delimiter)
        let raw = sheet.records.map { record in
            record.cells.map { String(decoding: sheet.text($0), as: UTF8.self) }
        }
        return (raw, read.records.map(\.fields))
    }

    @Test(arguments: [
        "a,b,c\r\n1,2,3\r\n",
        "a,b\n\n\r\n1,2",
        "a,b\r1,2\r",
        "\"x, y\",\"say \"\"hi\"\"\",z\n",
        "\"multi\r\nline\",2\n3,\"\"\n",
        "\"closed\"tail,\"\"\"\",plain\"quote\n",
        "a,b,\n,,\n",
        "a,b,",
        "\u{FEFF}tag,room\r\n001234,\"=HYPERLINK(\"\"u\"\",\"\"t\"\")\"\r\n",
        "\"\"",
    ])
    func splitsCellsExactlyAsTheReaderDoes(text: String) {
        let result = cells(text)
        #expect(result.raw == result.read)
    }

    @Test func splitsTabSeparatedText() {
        let result = cells("a\tb, c\t\"d\te\"\n1\t2\n", delimiter: .tab)
        #expect(result.raw == [["a", "b, c", "d\te"], ["1", "2"]])
        #expect(result.raw == result.read)
    }

    @Test func rangesCoverTheRawBytesQuotesIncluded() {
        let text = "ab,\"c,d\",\ne"
        let sheet = RawSheet(bytes: Array(text.utf8), start: 0, delimiter: .comma)
        #expect(sheet.records.map(\.cells) == [[0..<2, 3..<8, 9..<9], [10..<11]])
        #expect(sheet.records.map(\.end) == [9, 11])
    }

    @Test func encodesACellOnlyAsMuchAsItNeeds() {
        func encoded(_ text: String, _ delimiter: Delimiter = .comma) -> String {
            String(decoding: RawSheet.encoded(text, delimiter: delimiter), as: UTF8.self)
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
}
