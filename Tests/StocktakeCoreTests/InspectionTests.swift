import Testing

@testable import StocktakeCore

struct InspectionTests {
    let folder = TemporaryFolder()

    func inspect(_ text: String, name: String = "small.csv", rows: Bool = false) throws -> Inspection {
        try inspect(Array(text.utf8), name: name, rows: rows)
    }

    func inspect(_ bytes: [UInt8], name: String = "small.csv", rows: Bool = false) throws -> Inspection {
        try Inspection.inspect(path: folder.write(bytes, to: name), mapping: .builtIn, keepRows: rows)
    }

    static let small =
        "Tag,Serial,Notes,,\r\n1,abc,\"say \"\"hi\"\"\"\r\n2,def,\"two\nlines\"\r\n\r\n1,abc,\"say \"\"hi\"\"\"\r\n"

    @Test func jsonOfASmallFile() throws {
        let inspection = try inspect(Self.small, rows: true)
        #expect(
            inspection.json(includeRows: true)
                == #"{"header":["Tag","Serial","Notes","",""],"rows":[["1","abc","say \"hi\""],"#
                + #"["2","def","two\nlines"],"#
                + #"["1","abc","say \"hi\""]],"mapping":{"Tag":"vt_tag","Serial":"serial_number"},"#
                + #""unmapped":["Notes"],"problems":[{"line":6,"row":3,"message":"row 3 repeats row 1 exactly; "#
                + #"it counts once"}],"problemsNotListed":0,"delimiter":"comma","encoding":"UTF-8","lineEnding":"CRLF","rowCount":3}"#
                + "\n")
    }

    @Test func jsonWithoutRows() throws {
        let inspection = try inspect("Tag,GPS\n1,\"1,2\"\n")
        #expect(
            inspection.json(includeRows: false)
                == #"{"header":["Tag","GPS"],"mapping":{"Tag":"vt_tag","GPS":"latitude+longitude"},"unmapped":[],"#
                + #""problems":[],"problemsNotListed":0,"delimiter":"comma","encoding":"UTF-8","lineEnding":"LF","rowCount":1}"#
                + "\n")
    }

    @Test func textOfASmallFile() throws {
        let inspection = try inspect(Self.small, rows: true)
        #expect(
            inspection.text == """
                File:       \(folder.path("small.csv"))
                Delimiter:  comma
                Encoding:   UTF-8
                Line ends:  CRLF
                Rows:       3 data rows after the header on line 1

                Column  Maps to
                Tag     vt_tag
                Serial  serial_number
                Notes   (unmapped)

                Unmapped:   Notes
                Problems:   1
                  line 6: row 3 repeats row 1 exactly; it counts once

                1 | abc | say "hi"
                2 | def | two\\nlines
                1 | abc | say "hi"

                """)
    }

    @Test func problemsCarryTheirLines() throws {
        let bytes =
            EncodingSniffer.utf8ByteOrderMark + Array("Tag,VT ID,Model,Serial Number\n1,2,a\"b,s1\n3\n".utf8) + [0xFF]
            + Array(",4,x,s2\n,,m,\n".utf8)
        let inspection = try inspect(bytes)
        #expect(
            inspection.problems.map {
                "\($0.line) \($0.row.map(String.init) ?? "-") \($0.column ?? "-"): \($0.message)"
            }
                == [
                    "1 - -: Columns \"Tag\" and \"VT ID\" both hold vt_tag; only \"Tag\" is read.",
                    "2 1 Model: row 1: column \"Model\": \"a\"b\" has a stray quote (\") outside a quoted field; "
                        + "it is kept as written",
                    "3 2 -: row 2: has 1 cell but the header has 4; check for a missing or extra comma",
                    "4 3 Tag: row 3: column \"Tag\": \"\u{FFFD}\" contains the character \"\u{FFFD}\"; "
                        + "a VT tag is digits, optionally after VT",
                    "4 3 Tag: row 3: column \"Tag\": \"\u{FFFD}\" holds bytes that are not UTF-8; "
                        + "save the file as CSV UTF-8",
                    "5 4 -: row 4: has no VT tag, CNS number, serial number or MAC address, so it cannot be matched",
                ])
        #expect(inspection.invalidUTF8Lines == [4])
        #expect(inspection.encoding == "UTF-8 with byte-order mark (bytes that are not UTF-8 on line 4)")
        #expect(inspection.rowCount == 4)
        #expect(inspection.text.contains("Problems:   6\n  line 1: Columns \"Tag\" and \"VT ID\" both hold vt_tag"))
    }

    @Test func repeatedColumnsAreNotCalledUnmapped() throws {
        let inspection = try inspect("Notes,Tag,VT ID,Other,Tag\n")
        #expect(
            inspection.text.contains(
                """
                Column  Maps to
                Notes   (unmapped)
                Tag     vt_tag
                VT ID   (not read: an earlier column holds its field)
                Other   (unmapped)
                Tag     (not read: an earlier column holds its field)

                Unmapped:   Notes, Other
                Problems:   2
                  line 1: Columns "Tag" and "VT ID" both hold vt_tag; only "Tag" is read.
                  line 1: Columns "Tag" and "Tag" both hold vt_tag; only "Tag" is read.

                """))
    }

    @Test func encodingListsAtMostFiveInvalidLines() throws {
        var bytes = EncodingSniffer.utf8ByteOrderMark + Array("Serial\n".utf8)
        for _ in 0..<7 { bytes += [0x41, 0xC3, 0x0A] }
        let inspection = try inspect(bytes)
        #expect(inspection.invalidUTF8Lines == [2, 3, 4, 5, 6, 7, 8])
        #expect(
            inspection.encoding
                == "UTF-8 with byte-order mark (bytes that are not UTF-8 on lines 2, 3, 4, 5, 6 and 2 more)")
    }

    @Test func textThatIsNotUTF8IsNamedWindows1252WithoutCellProblems() throws {
        var bytes = Array("Serial\n".utf8)
        for row in 0..<7 { bytes += [0x41 + UInt8(row), 0xC3, 0x0A] }
        let inspection = try inspect(bytes, rows: true)
        #expect(inspection.invalidUTF8Lines == [])
        #expect(inspection.problems.isEmpty)
        #expect(inspection.rows == ["AÃ", "BÃ", "CÃ", "DÃ", "EÃ", "FÃ", "GÃ"].map { [$0] })
        #expect(inspection.encoding == "Windows-1252 (it is not UTF-8; save it as \"CSV UTF-8\" to be sure)")
        #expect(inspection.text.contains("Windows-1252 (it is not UTF-8; save it as \"CSV UTF-8\" to be sure)\n"))
    }

    @Test func unicodeTextIsNamedUTF16() throws {
        let bytes = [0xFF, 0xFE] + utf16Bytes("Serial\tRoom\r\nS1\t101\r\n")
        let inspection = try inspect(bytes, name: "Unicode Text.txt")
        #expect(inspection.encoding == "UTF-16 LE with byte-order mark")
        #expect(inspection.delimiter == .tab)
        #expect(inspection.rowCount == 1)
    }

    @Test func headerWithoutIdentifierIsAProblem() throws {
        let inspection = try inspect("\nModel;Room\nap;1\n", name: "rooms.csv")
        #expect(
            inspection.problems == [
                .init(
                    line: 2, row: nil, column: nil,
                    message:
                        "No column holds a VT tag, CNS number, serial number or MAC address; map one with --columns.")
            ])
        #expect(inspection.delimiter == .semicolon)
        #expect(inspection.headerLine == 2)
    }

    @Test func rowsAreExactlyAsParsed() throws {
        let inspection = try inspect("\u{FEFF}Tag,Notes\n  007 ,\" padded , quoted \"\n\"8\",\"a\r\nb\"\n", rows: true)
        #expect(inspection.layout.header == ["Tag", "Notes"])
        #expect(inspection.rows == [["  007 ", " padded , quoted "], ["8", "a\r\nb"]])
        #expect(inspection.hadByteOrderMark)
        #expect(inspection.encoding == "UTF-8 with byte-order mark")
        #expect(
            inspection.json(includeRows: true).hasPrefix(
                #"{"header":["Tag","Notes"],"rows":[["  007 "," padded , quoted "],["8","a\r\nb"]],"mapping":"#))
    }

    @Test func rowsOfEmptyCellsAboveTheHeaderAreNotData() throws {
        let inspection = try inspect(",,\nTag,Notes\n1,x\n,\n2,y\n", rows: true)
        #expect(inspection.headerLine == 2)
        #expect(inspection.layout.header == ["Tag", "Notes"])
        #expect(inspection.rows == [["1", "x"], ["", ""], ["2", "y"]])
        #expect(inspection.rowCount == 2)
        #expect(inspection.problems == [])
    }

    @Test func rowsAreOnlyKeptWhenAsked() throws {
        let inspection = try inspect(Self.small, rows: false)
        #expect(inspection.rows == [])
        #expect(inspection.text.hasSuffix("  line 6: row 3 repeats row 1 exactly; it counts once\n"))
    }

    @Test func emptyFile() throws {
        let inspection = try inspect("")
        #expect(
            inspection.text == """
                File:       \(folder.path("small.csv"))
                Delimiter:  comma
                Encoding:   UTF-8
                Line ends:  none
                Rows:       0 data rows

                Column  Maps to

                Unmapped:   none
                Problems:   none

                """)
        #expect(
            inspection.json(includeRows: true)
                == #"{"header":[],"rows":[],"mapping":{},"unmapped":[],"problems":[],"problemsNotListed":0,"delimiter":"comma","#
                + #""encoding":"UTF-8","lineEnding":null,"rowCount":0}"# + "\n")
    }

    @Test func longHeadersWidenTheColumn() throws {
        let inspection = try inspect("Wired MAC Address,\n")
        #expect(inspection.text.contains("\nColumn             Maps to\nWired MAC Address  mac_address\n"))
    }

    @Test func missingFile() throws {
        let path = folder.path("nope.csv")
        let error = #expect(throws: StocktakeError.self) {
            try Inspection.inspect(path: path, mapping: .builtIn, keepRows: false)
        }
        #expect(error == .missingInput(path: path, what: "file"))
    }

    @Test func unterminatedQuote() throws {
        let path = folder.write("Tag\n\"1\n", to: "open.csv")
        let error = #expect(throws: StocktakeError.self) {
            try Inspection.inspect(path: path, mapping: .builtIn, keepRows: true)
        }
        #expect(
            error?.description
                == "\(path): a quoted field opened on line 2 is never closed. "
                + "Look for a stray \" on that line and save the file again.")
    }
}

@Suite("Inspection of large files")
struct InspectionLimitTests {
    @Test func problemsAreListedUpToTheLimitAndTheRestCounted() throws {
        let folder = TemporaryFolder()
        var rows = ["Tag,MAC"]
        for tag in 1...1_500 { rows.append("\(tag),not-a-mac") }
        rows.append("1,not-a-mac")
        let path = folder.write(rows.joined(separator: "\n"), to: "big.csv")
        let inspection = try Inspection.inspect(path: path, mapping: .builtIn, keepRows: false)
        #expect(inspection.rowCount == 1_501)
        #expect(inspection.problems.count == Inspection.problemLimit + 1, "1,000 bad MACs and the repeated row")
        #expect(inspection.problemsNotListed == 500)
        #expect(inspection.text.contains("Problems:   1501\n"))
        #expect(inspection.text.contains("  and 500 more, not listed\n"))
        #expect(inspection.problems.last?.message == "row 1501 repeats row 1 exactly; it counts once")
    }

    @Test func rowsStreamExactlyAsParsed() throws {
        let folder = TemporaryFolder()
        let path = folder.write("\n,,\nTag,Note\n1,\"a\nb\"\n\n2,\n", to: "rows.csv")
        var rows: [[String]] = []
        try Inspection.forEachRow(path: path) { rows.append($0) }
        #expect(rows == [["1", "a\nb"], ["2", ""]])
    }

    @Test func aReaderThatKeepsNoRecordsStillCountsAndChecks() throws {
        var reader = SourceReader(mapping: .builtIn)
        reader.keepsRecords = false
        var csv = CSVReader(
            bytes: Array("Tag,MAC\n1,xx\n2,aa:bb:cc:dd:ee:ff\n2,aa:bb:cc:dd:ee:ff\n".utf8), name: "a.csv")
        let data = try reader.read(SourceFile(path: "a.csv", role: .sighting), from: &csv)
        #expect(data.records.isEmpty)
        #expect(data.rowCount == 3)
        #expect(data.issues.map(\.row) == [1])
        #expect(data.issues.first?.recordIndex == nil)
        #expect(data.repeatedRows == [.init(row: 3, line: 4, firstRecordIndex: -1, firstRow: 2)])
    }
}

/// `stocktake inspect` on an `.xlsx` workbook: the sheet read, the sheets there are, rows numbered as Excel shows them.
struct WorkbookInspectionTests {
    let folder = TemporaryFolder()

    /// A workbook whose first sheet, "Old", is hidden; the visible "APs" has nothing on row 1, the header on row 2,
    /// a tag stored as a number, a damaged MAC and a repeated row.
    func workbook() -> String {
        let sheet = { (number: Int, rows: String) in
            TestZipEntry("xl/worksheets/sheet\(number).xml", WorkbookTests.sheetXML(rows))
        }
        let parts = [
            TestZipEntry("_rels/.rels", WorkbookTests.rootRelationships),
            TestZipEntry(
                "xl/workbook.xml",
                """
                <workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
                xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>\
                <sheet name="Old" sheetId="1" state="hidden" r:id="rId1"/><sheet name="APs" sheetId="2" r:id="rId2"/>\
                </sheets></workbook>
                """),
            TestZipEntry(
                "xl/_rels/workbook.xml.rels",
                WorkbookTests.relationships([
                    ("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId2", "worksheet", "worksheets/sheet2.xml"),
                ])),
            sheet(1, #"<row r="1"><c t="inlineStr"><is><t>Tag</t></is></c></row><row r="2"><c><v>7</v></c></row>"#),
            sheet(
                2,
                #"<row r="2"><c r="A2" t="inlineStr"><is><t>VT Tag</t></is></c><c r="B2" t="inlineStr"><is><t>MAC</t>"#
                    + #"</is></c><c r="C2" t="inlineStr"><is><t>Notes</t></is></c></row>"#
                    + #"<row r="3"><c r="A3"><v>12976</v></c><c r="B3" t="inlineStr"><is><t>zz</t></is></c></row>"#
                    + #"<row r="5"><c r="A5"><v>12976</v></c><c r="B5" t="inlineStr"><is><t>zz</t></is></c></row>"#),
        ]
        return folder.write(TestZip.build(parts), to: "scans.xlsx")
    }

    @Test func theFirstVisibleSheetIsInspectedAndEverySheetNamed() throws {
        let path = workbook()
        let inspection = try Inspection.inspect(path: path, mapping: .builtIn, keepRows: true)
        #expect(
            inspection.text == """
                File:       \(path)
                Format:     .xlsx workbook
                Sheet:      APs
                Sheets:     Old (hidden), APs
                Rows:       2 data rows after the header on row 2

                Column  Maps to
                VT Tag  vt_tag
                MAC     mac_address
                Notes   (unmapped)

                Unmapped:   Notes
                Problems:   2
                  sheet row 3: row 1: column "MAC": "zz" contains the character "z", which is not a hex digit or separator
                  sheet row 5: row 2 repeats row 1 exactly; it counts once

                """ + "\n12976 | zz | \n12976 | zz | \n")
        // Rows are as wide as the header: the empty Notes cells are cells.
        #expect(inspection.rows == [["12976", "zz", ""], ["12976", "zz", ""]])
        #expect(
            inspection.json(includeRows: false)
                == #"{"header":["VT Tag","MAC","Notes"],"mapping":{"VT Tag":"vt_tag","MAC":"mac_address"},"#
                + #""unmapped":["Notes"],"problems":[{"line":3,"row":1,"column":"MAC","message":"row 1: column \"MAC\": "#
                + #"\"zz\" contains the character \"z\", which is not a hex digit or separator"},{"line":5,"row":2,"#
                + #""message":"row 2 repeats row 1 exactly; it counts once"}],"problemsNotListed":0,"format":"xlsx","#
                + #""sheet":"APs","sheets":["Old","APs"],"hiddenSheets":["Old"],"rowCount":2}"# + "\n")
    }

    @Test func aHiddenSheetIsInspectedWhenNamedAndItsRowsStream() throws {
        let path = workbook()
        let inspection = try Inspection.inspect(path: path, sheet: "old", mapping: .builtIn, keepRows: false)
        #expect(
            inspection.worksheets?.read == WorkbookSheet(name: "Old", isHidden: true, part: "xl/worksheets/sheet1.xml"))
        #expect(inspection.text.contains("\nSheet:      Old (hidden)\n"))
        #expect(inspection.rowCount == 1)
        var rows: [[String]] = []
        try Inspection.forEachRow(path: path, sheet: "Old") { rows.append($0) }
        #expect(rows == [["7"]])
        rows = []
        try Inspection.forEachRow(path: path) { rows.append($0) }
        #expect(rows == [["12976", "zz", ""], ["12976", "zz", ""]])
    }

    @Test func aMissingSheetNamesTheSheetsThereAre() {
        let path = workbook()
        let error = #expect(throws: StocktakeError.self) {
            try Inspection.inspect(path: path, sheet: "Closets", mapping: .builtIn, keepRows: false)
        }
        #expect(
            error?.description
                == "\(path): the workbook has no sheet named \"Closets\"; its sheets are \"Old\", \"APs\". Check the "
                + "sheet's name where it is given (the account's sources, --central-sheet or --sheet).")
        #expect(error?.exitStatus.rawValue == 65)
    }
}
