import Testing

@testable import StocktakeCore

@Suite("CSVWriter")
struct CSVWriterTests {
    /// The writer's output as text.
    private func text(_ writer: CSVWriter) -> String {
        String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func findsAQuotingByteAtEveryPlaceInCellsOfEveryLength() {
        // Bytes next to the four in value, and bytes that differ from them by one bit, must not count.
        let plain: [UInt8] = [
            0x2B, 0x2D, 0x21, 0x23, 0x0C, 0x0E, 0x09, 0x0B, 0xAC, 0xA2, 0x8D, 0x8A, 0x6C, 0x62, 0x20, 0x41,
        ]
        for length in 0...40 {
            let cell = (0..<length).map { plain[$0 % plain.count] }
            cell.withUnsafeBufferPointer { #expect(!CSVWriter.needsQuotes($0), "\(length) plain bytes") }
            for position in 0..<length {
                for byte in [ASCII.comma, ASCII.quote, ASCII.carriageReturn, ASCII.lineFeed] {
                    var marked = cell
                    marked[position] = byte
                    marked.withUnsafeBufferPointer {
                        #expect(CSVWriter.needsQuotes($0), "\(byte) at \(position) of \(length)")
                    }
                }
            }
        }
    }

    @Test func writesHeaderFirst() {
        let writer = CSVWriter(header: ["vt_tag", "cns_number", "status"])
        #expect(text(writer) == "vt_tag,cns_number,status\r\n")
    }

    @Test func writesRowsWithCarriageReturnLineFeed() {
        var writer = CSVWriter(header: ["a", "b"])
        writer.append(["1", "x, y"])
        writer.append(["2", "say \"hi\""])
        #expect(text(writer) == "a,b\r\n1,\"x, y\"\r\n2,\"say \"\"hi\"\"\"\r\n")
    }

    @Test func writesRowsWithLineFeed() {
        var writer = CSVWriter(header: ["a", "b"], lineEnding: .lf)
        writer.append(["1", "two\nlines"])
        writer.append(["", "x"])
        #expect(text(writer) == "a,b\n1,\"two\nlines\"\n,x\n")
    }

    @Test func writesRowOfOneEmptyCellAsQuotes() {
        var writer = CSVWriter(header: ["a"], lineEnding: .lf)
        writer.append([""])
        writer.append([])
        writer.append(["", ""])
        #expect(text(writer) == "a\n\"\"\n\"\"\n,\n")
    }

    @Test func quotesOnlyWhenNeeded() {
        #expect(CSVWriter.field("") == "")
        #expect(CSVWriter.field("plain text") == "plain text")
        #expect(CSVWriter.field(" padded ") == " padded ")
        #expect(CSVWriter.field("a;b") == "a;b")
        #expect(CSVWriter.field("café 日本") == "café 日本")
        #expect(CSVWriter.field("a,b") == "\"a,b\"")
        #expect(CSVWriter.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVWriter.field("\"") == "\"\"\"\"")
        #expect(CSVWriter.field("line\nbreak") == "\"line\nbreak\"")
        #expect(CSVWriter.field("cr\rhere") == "\"cr\rhere\"")
        #expect(CSVWriter.field("crlf\r\nhere") == "\"crlf\r\nhere\"")
    }

    @Test func neutralizesFormulaStarts() {
        #expect(CSVWriter.neutralized("=SUM(A1)") == "'=SUM(A1)")
        #expect(CSVWriter.neutralized("+1-555") == "'+1-555")
        #expect(CSVWriter.neutralized("-cmd") == "'-cmd")
        #expect(CSVWriter.neutralized("@x") == "'@x")
        #expect(CSVWriter.neutralized("\tx") == "'\tx")
        #expect(CSVWriter.neutralized("\rx") == "'\rx")
        #expect(CSVWriter.neutralized("\nx") == "'\nx")
        #expect(CSVWriter.neutralized("\u{0}x") == "'\u{0}x")
        #expect(CSVWriter.neutralized("-") == "'-")
        #expect(CSVWriter.neutralized("+") == "'+")
        #expect(CSVWriter.neutralized("-.") == "'-.")
        #expect(CSVWriter.neutralized("-1e") == "'-1e")
        #expect(CSVWriter.neutralized("-1e+") == "'-1e+")
        #expect(CSVWriter.neutralized("-1,000") == "'-1,000")
        #expect(CSVWriter.neutralized("-1 ") == "'-1 ")
        #expect(CSVWriter.neutralized("--1") == "'--1")
    }

    @Test func keepsNumbersAndOrdinaryText() {
        for cell in [
            "-80.4139", "+12", "1e5", "-1.5e-3", "+2.E+10", "-.5", "-0", "", "a=b", "x-1", "'quoted", "VT-001",
        ] {
            #expect(CSVWriter.neutralized(cell) == cell)
        }
    }

    @Test func neutralizesBeforeQuoting() {
        #expect(CSVWriter.field("=HYPERLINK(\"x\",\"y\")") == "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"")
        #expect(CSVWriter.field("\nx") == "\"'\nx\"")
        #expect(CSVWriter.field("\tx") == "'\tx")
        #expect(CSVWriter.field("-80.4139") == "-80.4139")
        var writer = CSVWriter(header: ["=h"], lineEnding: .lf)
        writer.append(["@a", "-1.5", "+1-555"])
        #expect(text(writer) == "'=h\n'@a,-1.5,'+1-555\n")
    }

    @Test func copiesFormulaStartsVerbatimWhenNotProtecting() {
        var writer = CSVWriter(header: ["=h", "b"], lineEnding: .lf, protectsFormulas: false)
        writer.append(["@a", "+1-555", "=HYPERLINK(\"x\",\"y\")"])
        writer.append(["\tx", "-cmd"])
        #expect(text(writer) == "=h,b\n@a,+1-555,\"=HYPERLINK(\"\"x\"\",\"\"y\"\")\"\n\tx,-cmd\n")
    }

    @Test(arguments: [CSVWriter.LineEnding.crlf, .lf])
    func roundTripsRandomRows(lineEnding: CSVWriter.LineEnding) throws {
        var generator = CSVTestRandomGenerator(seed: 20_261_123)
        let pieces = [
            "a", "Z", "9", " ", "\"", "\"\"", ",", ";", "\t", "\r\n", "\n", "\r", "é", "日本", "😀", "-", "=", "x y",
        ]
        let header = ["first", "second", "third"]
        var rows: [[String]] = []
        while rows.count < 300 {
            let cellCount = Int.random(in: 1...6, using: &generator)
            let row = (0..<cellCount).map { _ in
                (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                    .joined()
            }
            // Cells that get a leading ' cannot read back equal; they are tested above.
            if row.allSatisfy({ CSVWriter.neutralized($0) == $0 }) { rows.append(row) }
        }
        var writer = CSVWriter(header: header, lineEnding: lineEnding)
        for row in rows { writer.append(row) }
        for chunkSize in [5, 1 << 20] {
            let result = readCSV(writer.bytes, name: "round-trip.csv", delimiter: .comma, chunkSize: chunkSize)
            #expect(result.error == nil)
            #expect(result.records.map(\.fields) == [header] + rows)
            #expect(result.records.allSatisfy { $0.problems.isEmpty })
            #expect(result.lineEnding == (lineEnding == .crlf ? "CRLF" : "LF"))
        }
    }
}
