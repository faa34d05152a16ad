import Foundation
import Testing

@testable import StocktakeCore

struct SourceReaderTests {
    let folder = TemporaryFolder()

    /// Reads `text` from memory as a sighting named `name`.
    func read(
        _ text: String, name: String = "scan.csv", buildings: BuildingTable? = nil,
        mapping: ColumnMapping = .builtIn, tagDigits: Int = 6
    ) throws -> SourceData {
        try read(Array(text.utf8), name: name, buildings: buildings, mapping: mapping, tagDigits: tagDigits)
    }

    func read(
        _ bytes: [UInt8], name: String = "scan.csv", buildings: BuildingTable? = nil,
        mapping: ColumnMapping = .builtIn, tagDigits: Int = 6
    ) throws -> SourceData {
        var reader = CSVReader(bytes: bytes, name: name)
        let sourceReader = SourceReader(mapping: mapping, tagDigits: tagDigits, buildings: buildings)
        return try sourceReader.read(SourceFile(path: name, role: .sighting), from: &reader)
    }

    func texts(_ record: SourceRecord) -> [String] {
        CanonicalField.allCases.map { record.values.text($0) }
    }

    @Test func normalizedValuesLandInTheirFields() throws {
        let data = try read(
            "VT Tag,CNS #,Serial,MAC Address,Model,Description,Bldg,Room,Mount,Custodian,Lat,Lon,Last Seen,Stock #,"
                + "Unit Cost\n"
                + "VT-1234, c 42 ,abc 123,AA-BB-CC-DD-EE-FF, ap-515 , Wall AP ,torg,  101   a ,CEILING, jdoe ,"
                + "37.2296,-80.4139,3/4/2025, S-9 ,\"$1,195.00\"\n")
        #expect(data.records.count == 1)
        let record = try #require(data.records.first)
        #expect(
            texts(record) == [
                "001234", "C000042", "ABC123", "aa:bb:cc:dd:ee:ff", "AP-515", "Wall AP", "TORG", "101 A", "ceiling",
                "jdoe", "37.2296", "-80.4139", "2025-03-04", "S-9", "1195.00",
            ])
        #expect(record.row == 1)
        #expect(record.line == 2)
        #expect(data.issues == [])
        #expect(data.rowCount == 1)
        #expect(data.headerLine == 1)
    }

    /// Serial numbers are added to the shared texts `ReadState.serialsPerBatch` at a time: every record, before,
    /// across and after the batches' boundaries, holds its own serial, a repeated serial the same one, and a row
    /// without one none.
    @Test func serialsOfManyRowsLandInTheirRecords() throws {
        let count = ReadState.serialsPerBatch * 2 + 10
        var text = "VT Tag,Serial\n"
        for number in 0..<count {
            let serial = number % 1000 == 999 ? "" : number % 1000 == 500 ? "sn same" : "sn \(number)"
            text += "\(100_000 + number),\(serial)\n"
        }
        let data = try read(text)
        #expect(data.records.count == count)
        var wrong = 0
        for (number, record) in data.records.enumerated() {
            let expected: SerialNumber? =
                number % 1000 == 999
                ? nil
                : number % 1000 == 500 ? SerialNumber(canonical: "SNSAME") : SerialNumber(canonical: "SN\(number)")
            if record.values.serialNumber != expected || record.values.vtTag?.number != UInt64(100_000 + number) {
                wrong += 1
            }
        }
        #expect(wrong == 0)
    }

    @Test func gpsColumnFillsLatitudeAndLongitude() throws {
        let data = try read("Tag,GPS\n1,\"37.5, -80.25\"\n")
        let values = try #require(data.records.first?.values)
        #expect(values.latitude == 37.5)
        #expect(values.longitude == -80.25)
    }

    @Test func tagDigitsAreUsed() throws {
        let data = try read("Tag\n42\n", tagDigits: 8)
        #expect(data.records.first?.values.text(.vtTag) == "00000042")
    }

    @Test func layoutAndFileFactsAreKept() throws {
        let data = try read("\u{FEFF}\r\nTag;Notes\r\n1;x\r\n")
        #expect(data.layout.header == ["Tag", "Notes"])
        #expect(data.layout.unmapped == ["Notes"])
        #expect(data.delimiter == .semicolon)
        #expect(data.hadByteOrderMark)
        #expect(data.lineEnding == "CRLF")
        #expect(data.headerLine == 2)
        #expect(data.records.map(\.line) == [3])
        #expect(data.file == SourceFile(path: "scan.csv", role: .sighting))
    }

    @Test func rowsOfEmptyCellsAboveTheHeaderAreSkipped() throws {
        let data = try read(",,\n , \n\nTag,Serial\n1,a\n")
        #expect(data.headerLine == 4)
        #expect(data.layout.header == ["Tag", "Serial"])
        #expect(data.records.map(\.row) == [1])
        #expect(data.records.map(\.line) == [5])
        #expect(data.issues == [])
    }

    @Test func fileOfEmptyCellsHasNoHeader() throws {
        let data = try read(",,\n,\n")
        #expect(data.headerLine == 0)
        #expect(data.rowCount == 0)
    }

    @Test func emptyFileHasNoHeader() throws {
        let data = try read("")
        #expect(data.headerLine == 0)
        #expect(data.layout.header == [])
        #expect(data.rowCount == 0)
        #expect(data.records.isEmpty)
    }

    @Test func blankAndAllEmptyRowsAreSkippedAndNotCounted() throws {
        let data = try read("Tag,Serial\n\n1,A\n,\n , \n\t,\"\"\n2,B\n\n")
        #expect(data.rowCount == 2)
        #expect(data.records.map(\.row) == [1, 2])
        #expect(data.records.map(\.line) == [3, 7])
        #expect(data.issues == [])
        #expect(data.repeatedRows == [])
    }

    @Test func dataRowsAreNumberedAfterTheHeader() throws {
        let data = try read("\n\nTag\n1\n\n2\n\"3\n\"\n4\n")
        #expect(data.headerLine == 3)
        #expect(data.records.map(\.row) == [1, 2, 3, 4])
        #expect(data.records.map(\.line) == [4, 6, 7, 9])
    }

    @Test func repeatedRowsCountOnceAndPointAtTheFirst() throws {
        let data = try read("Tag,Serial\n1,A\n2,B\n2,B\n1,A\n1, A\n2,B\n")
        #expect(data.rowCount == 6)
        #expect(data.records.map(\.row) == [1, 2, 5])
        #expect(
            data.repeatedRows == [
                .init(row: 3, line: 4, firstRecordIndex: 1, firstRow: 2),
                .init(row: 4, line: 5, firstRecordIndex: 0, firstRow: 1),
                .init(row: 6, line: 7, firstRecordIndex: 1, firstRow: 2),
            ])
    }

    /// A file's rows are looked up once their cells are read; past `ReadState.rowsTakenAtOnce` distinct rows, each
    /// row's slot of the table is fetched when the row arrives. Either way, a repeat of a row far back, of the row
    /// just before, after a blank line, and repeats of a repeat all point at the first, by record index and by row
    /// (which differ once rows were repeated).
    @Test(arguments: [0, ReadState.rowsTakenAtOnce])
    func repeatedRowsAcrossBatchesPointAtTheFirst(distinctRowsBefore offset: Int) throws {
        var text = "Tag,Serial\n"
        for row in 0..<offset { text += "\(200_000 + row),F\(row)\n" }
        for row in 1...40 {
            switch row {
            case 17, 35: text += "3,S3\n"
            case 18: text += "16,S16\n\n"
            case 20: text += "19,S19\n"
            default: text += "\(row),S\(row)\n"
            }
        }
        let data = try read(text)
        #expect(data.rowCount == offset + 40)
        #expect(data.records.count == offset + 36)
        #expect(
            data.records.dropFirst(offset).map(\.row)
                == (1...40).filter { ![17, 18, 20, 35].contains($0) }.map { Int32(offset + $0) })
        #expect(
            data.repeatedRows == [
                .init(row: offset + 17, line: offset + 18, firstRecordIndex: offset + 2, firstRow: offset + 3),
                .init(row: offset + 18, line: offset + 19, firstRecordIndex: offset + 15, firstRow: offset + 16),
                .init(row: offset + 20, line: offset + 22, firstRecordIndex: offset + 16, firstRow: offset + 19),
                .init(row: offset + 35, line: offset + 37, firstRecordIndex: offset + 2, firstRow: offset + 3),
            ])
    }

    @Test func cellsThatDifferOnlyInWhereTheySplitAreNotRepeats() throws {
        let data = try read("Serial,Model\na,bc\nab,c\n")
        #expect(data.records.count == 2)
        #expect(data.repeatedRows == [])
    }

    @Test func aRepeatedInvalidRowIsReportedOnce() throws {
        let data = try read("Tag,MAC\n1,12:34\n1,12:34\n")
        #expect(data.issues.count == 1)
        #expect(data.repeatedRows == [.init(row: 2, line: 3, firstRecordIndex: 0, firstRow: 1)])
    }

    @Test func shorterRowIsRaggedButUsed() throws {
        let data = try read("Tag,Serial,Model\n1,A\n")
        #expect(
            data.issues == [
                RowIssue(
                    kind: .raggedRow, row: 1, line: 2, recordIndex: 0, field: nil, column: nil, value: "2 cells",
                    reason: "has 2 cells but the header has 3; check for a missing or extra comma")
            ])
        #expect(data.records.first?.values.text(.serialNumber) == "A")
    }

    @Test func longerRowIsRaggedButUsed() throws {
        let data = try read("Tag,Serial,Model\n1,A,m,extra\n")
        #expect(
            data.issues == [
                RowIssue(
                    kind: .raggedRow, row: 1, line: 2, recordIndex: 0, field: nil, column: nil, value: "4 cells",
                    reason: "has 4 cells but the header has 3; check for a missing or extra comma")
            ])
        #expect(data.records.first?.values.text(.model) == "M")
    }

    @Test func longerRowWhoseExtraCellsAreEmptyIsNotRagged() throws {
        let data = try read("Tag,Serial,Model\n1,A,m,,\n2,B,n, ,\"\"\n")
        #expect(data.issues == [])
        #expect(data.records.count == 2)
    }

    @Test func rowsMatchAHeaderWithTrailingEmptyCells() throws {
        let data = try read("Tag,Serial,,\n1,A,,\n2,B\n")
        #expect(data.layout.width == 2)
        #expect(data.issues == [])
    }

    @Test func invalidCellIsReportedAndLeftOut() throws {
        let data = try read("Tag,MAC Address,Model\n1,  12:34 ,m1\n")
        #expect(
            data.issues == [
                RowIssue(
                    kind: .invalidValue, row: 1, line: 2, recordIndex: 0, field: .macAddress, column: "MAC Address",
                    value: "12:34", reason: "has 4 hex digits; a MAC address has 12")
            ])
        let values = try #require(data.records.first?.values)
        #expect(values.macAddress == nil)
        #expect(values.text(.vtTag) == "000001")
        #expect(values.model == "M1")
    }

    @Test func invalidGPSIsReportedAsLatitude() throws {
        let data = try read("Tag,Coordinates\n1,north\n")
        #expect(
            data.issues == [
                RowIssue(
                    kind: .invalidValue, row: 1, line: 2, recordIndex: 0, field: .latitude, column: "Coordinates",
                    value: "north", reason: "is not a latitude,longitude pair such as \"37.2296,-80.4139\"")
            ])
        #expect(data.records.first?.values.latitude == nil)
        #expect(data.records.first?.values.longitude == nil)
    }

    @Test func invalidCellInAnUnnamedColumnIsLabelledByPosition() throws {
        let mapping = ColumnMapping.builtIn.adding(["": .field(.lastSeen)])
        let data = try read(",Tag\nsomeday,1\n", mapping: mapping)
        #expect(data.issues.map(\.column) == ["(column 1)"])
        #expect(data.issues.map(\.value) == ["someday"])
        #expect(data.issues.map(\.field) == [.lastSeen])
    }

    @Test func unknownBuildingWithATable() throws {
        let table = BuildingTable([Building(code: "TORG", name: "Torgersen Hall")])
        let data = try read("Tag,Building\n1, Nowhere Hall \n2,torgersen hall\n", buildings: table)
        #expect(
            data.issues == [
                RowIssue(
                    kind: .unknownBuilding, row: 1, line: 2, recordIndex: 0, field: .building, column: "Building",
                    value: "Nowhere Hall", reason: "is not in the buildings table")
            ])
        #expect(data.records.map(\.values.building) == [nil, "TORG"])
    }

    @Test func buildingIsUpperCasedWithoutATable() throws {
        let data = try read("Tag,Building\n1, Nowhere Hall \n")
        #expect(data.issues == [])
        #expect(data.records.first?.values.building == "NOWHERE HALL")
    }

    @Test func strayQuoteIsDamagedTextAndKept() throws {
        let data = try read("Tag,Model\n1,ab\"c\n2,ok\n")
        #expect(
            data.issues == [
                RowIssue(
                    kind: .damagedText, row: 1, line: 2, recordIndex: 0, field: .model, column: "Model",
                    value: "ab\"c", reason: "has a stray quote (\") outside a quoted field; it is kept as written")
            ])
        #expect(data.records.first?.values.model == "AB\"C")
    }

    /// A file that says it is UTF-8 (Excel's "CSV UTF-8" starts with a byte-order mark) and holds bytes that are
    /// not is damaged, not Windows-1252: its good characters stay, and each damaged cell is reported.
    @Test func invalidUTF8AfterAUTF8ByteOrderMarkIsDamagedTextOnItsLine() throws {
        let bytes =
            EncodingSniffer.utf8ByteOrderMark + Array("Tag,Model\n1,ok\n2,caf".utf8) + [0xE9] + Array("\n".utf8)
        let data = try read(bytes)
        #expect(data.encoding == .utf8)
        #expect(
            data.issues == [
                RowIssue(
                    kind: .damagedText, row: 2, line: 3, recordIndex: 1, field: .model, column: "Model",
                    value: "caf\u{FFFD}", reason: "holds bytes that are not UTF-8; save the file as CSV UTF-8")
            ])
        #expect(data.records.count == 2)
    }

    @Test func damageInsideAMultiLineFieldNamesItsOwnLine() throws {
        let bytes =
            EncodingSniffer.utf8ByteOrderMark + Array("Tag,Notes\n1,\"first\nsec".utf8) + [0xFF] + Array("ond\"\n".utf8)
        let data = try read(bytes)
        #expect(data.issues.map(\.line) == [3])
        #expect(data.issues.map(\.row) == [1])
        #expect(data.issues.map(\.column) == ["Notes"])
        #expect(data.issues.map(\.field) == [nil])
    }

    @Test func damageInACellPastTheHeaderHasNoColumn() throws {
        let data = try read("Tag\n1,x\"y\n")
        #expect(data.issues.map(\.kind) == [.damagedText, .raggedRow])
        #expect(data.issues.first?.column == nil)
        #expect(data.issues.first?.value == "x\"y")
    }

    @Test func rowWithoutIdentifier() throws {
        let data = try read("Tag,Model\n,m1\n2,m2\n")
        #expect(
            data.issues == [
                RowIssue(
                    kind: .noIdentifier, row: 1, line: 2, recordIndex: nil, field: nil, column: nil, value: "",
                    reason: "has no VT tag, CNS number, serial number or MAC address, so it cannot be matched")
            ])
        #expect(data.records.map(\.row) == [2])
        #expect(data.rowCount == 2)
    }

    @Test func rowWithPlaceholderIdentifiersHasNoIdentifier() throws {
        let data = try read("Tag,Serial,MAC\nN/A,0000,00:00:00:00:00:00\n")
        #expect(data.issues.map(\.kind) == [.noIdentifier])
        #expect(data.records.isEmpty)
    }

    @Test func rowWithOnlyAnInvalidIdentifierIsNotAlsoReportedAsHavingNone() throws {
        let data = try read("Tag,Model\n1.23E+05,m1\n")
        #expect(
            data.issues == [
                RowIssue(
                    kind: .invalidValue, row: 1, line: 2, recordIndex: nil, field: .vtTag, column: "Tag",
                    value: "1.23E+05", reason: "is in scientific notation (Excel reformatted it); type the full VT tag")
            ])
        #expect(data.records.isEmpty)
    }

    @Test func rowWithAnInvalidAndAValidIdentifierIsKept() throws {
        let data = try read("Tag,MAC\n1.2E+05,AABB.CCDD.EEFF\n")
        #expect(data.issues.map(\.kind) == [.invalidValue])
        #expect(data.issues.map(\.recordIndex) == [0])
        #expect(data.records.map { $0.values.text(.macAddress) } == ["aa:bb:cc:dd:ee:ff"])
        #expect(data.records.first?.values.vtTag == nil)
    }

    @Test func invalidNonIdentifierDoesNotExcuseAMissingIdentifier() throws {
        let data = try read("Tag,MAC,Date\n,,someday\n")
        #expect(data.issues.map(\.kind) == [.invalidValue, .noIdentifier])
    }

    @Test func withoutAnIdentifierColumnRowsAreNotReportedOneByOne() throws {
        let data = try read("Model,Room\nm1,101\n")
        #expect(data.issues == [])
        #expect(data.records.isEmpty)
        #expect(data.rowCount == 1)
    }

    @Test func issuesOfKeptRowsPointAtTheirRecord() throws {
        let data = try read("Tag,MAC\n1,zz\n,\n2,\n3,yy,extra\n")
        #expect(data.issues.map(\.kind) == [.invalidValue, .invalidValue, .raggedRow])
        #expect(data.issues.map(\.recordIndex) == [0, 2, 2])
        #expect(data.issues.map(\.row) == [1, 3, 3])
    }

    @Test func unterminatedQuoteStopsWithTheOpeningLine() throws {
        let error = #expect(throws: StocktakeError.self) { try read("Tag,Model\n1,ok\n2,\"never\nclosed\n") }
        #expect(
            error
                == .badData(
                    path: "scan.csv",
                    reason: "a quoted field opened on line 3 is never closed. "
                        + "Look for a stray \" on that line and save the file again."))
        #expect(
            error?.description
                == "scan.csv: a quoted field opened on line 3 is never closed. "
                + "Look for a stray \" on that line and save the file again.")
        #expect(error?.exitStatus == .dataError)
    }

    @Test func unterminatedQuoteInAFileOnDiskNamesThePath() throws {
        let path = folder.write("Tag\n1\n\"2\n", to: "central.csv")
        let error = #expect(throws: StocktakeError.self) {
            try SourceReader(mapping: .builtIn).read(SourceFile(path: path, role: .central))
        }
        #expect(
            error?.description
                == "\(path): a quoted field opened on line 3 is never closed. "
                + "Look for a stray \" on that line and save the file again.")
    }

    @Test func missingFile() throws {
        let path = folder.path("nope.csv")
        let error = #expect(throws: StocktakeError.self) {
            try SourceReader(mapping: .builtIn).read(SourceFile(path: path, role: .sighting))
        }
        #expect(error == .missingInput(path: path, what: "file"))
        #expect(error?.description == "\(path): no such file. Check the path, or create it.")
        #expect(error?.exitStatus == .noInput)
    }

    @Test func folderInsteadOfAFile() throws {
        let error = #expect(throws: StocktakeError.self) {
            try SourceReader(mapping: .builtIn).read(SourceFile(path: folder.path, role: .sighting))
        }
        #expect(error == .unreadableInput(path: folder.path, reason: "it cannot be read (Is a directory)"))
        #expect(error?.exitStatus == .noInput)
    }

    static let windows1252 =
        Array("Tag,Model\n100001,caf".utf8) + [0xE9] + Array("\n100002,O".utf8) + [0x92] + Array("Neil\n".utf8)

    @Test func windows1252FileIsReadWithOneNoteAndNoCellWarnings() throws {
        let path = folder.write(Self.windows1252, to: "latin.csv")
        let data = try SourceReader(mapping: .builtIn).read(SourceFile(path: path, role: .register))
        #expect(data.encoding == .windows1252)
        #expect(data.issues == [])
        #expect(data.records.map { $0.values.model } == ["CAFé", "O’NEIL"])
        #expect(
            data.encodingNote == "read as Windows-1252 because it is not UTF-8; save it as \"CSV UTF-8\" to be sure")
    }

    @Test func aSetEncodingIsHonouredWithoutANote() throws {
        let path = folder.write(Self.windows1252, to: "latin.csv")
        let set = try SourceReader(mapping: .builtIn).read(
            SourceFile(path: path, role: .register, encoding: .windows1252))
        #expect(set.encoding == .windows1252)
        #expect(set.encodingNote == nil, "the account named it: nothing was guessed")
        #expect(set.records.map { $0.values.model } == ["CAFé", "O’NEIL"])
        // UTF-8 set for a file that is not: each damaged cell is reported, as for any UTF-8 file with bad bytes.
        let forced = try SourceReader(mapping: .builtIn).read(SourceFile(path: path, role: .register, encoding: .utf8))
        #expect(forced.encoding == .utf8)
        #expect(forced.encodingNote == nil)
        #expect(
            forced.issues.map(\.reason)
                == Array(repeating: "holds bytes that are not UTF-8; save the file as CSV UTF-8", count: 2))
        // UTF-16 without a byte-order mark is read when it is set.
        let units = "Tag\tModel\n1\té\n".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let big = folder.write(units, to: "big.txt")
        let utf16 = try SourceReader(mapping: .builtIn).read(
            SourceFile(path: big, role: .register, encoding: TextEncoding(name: "utf-16be")))
        #expect(utf16.records.map { $0.values.model } == ["é"])
    }

    @Test func utf16FileIsReadWithoutANote() throws {
        let units = "Tag\tModel\n1\té\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let path = folder.write([0xFF, 0xFE] + units, to: "unicode.txt")
        let data = try SourceReader(mapping: .builtIn).read(SourceFile(path: path, role: .register))
        #expect(data.encoding == .utf16LittleEndian)
        #expect(data.delimiter == .tab)
        #expect(data.records.map { $0.values.model } == ["é"])
    }

    @Test func utf32FileIsRefused() throws {
        let path = folder.write([0xFF, 0xFE, 0, 0] + Array("T\0\0\0\n\0\0\0".utf8), to: "unicode.csv")
        let error = #expect(throws: StocktakeError.self) {
            try SourceReader(mapping: .builtIn).read(SourceFile(path: path, role: .register))
        }
        #expect(
            error
                == .badData(
                    path: path,
                    reason: "the file is encoded as UTF-32 LE, which cannot be read. "
                        + "Open it in a spreadsheet and save it as \"CSV UTF-8\"."))
        #expect(error?.exitStatus == .dataError)
    }

    @Test func utf16FileWithoutByteOrderMarkIsRefused() throws {
        let path = folder.write(Array("T\0a\0g\0\n\0".utf8) + Array("1\0\n\0".utf8), to: "unicode.csv")
        let error = #expect(throws: StocktakeError.self) {
            try SourceReader(mapping: .builtIn).read(SourceFile(path: path, role: .sighting))
        }
        #expect(
            error
                == .badData(
                    path: path,
                    reason: "the file is encoded as UTF-16 LE without a byte-order mark, which cannot be read. "
                        + "Open it in a spreadsheet and save it as \"CSV UTF-8\"."))
        #expect(error?.exitStatus == .dataError)
    }

    @Test func readsAFileFromDisk() throws {
        let path = folder.write("Serial\tModel\nabc\tap\n", to: "scan.tsv")
        let data = try SourceReader(mapping: .builtIn).read(SourceFile(path: path, role: .sighting))
        #expect(data.delimiter == .tab)
        #expect(data.records.first?.values.text(.serialNumber) == "ABC")
        #expect(data.records.first?.values.model == "AP")
    }

    @Test func rowWithOneCellIsCountedInTheSingular() throws {
        let data = try read("Tag,Serial\n1\n")
        #expect(data.issues.map(\.value) == ["1 cell"])
        #expect(data.issues.map(\.reason) == ["has 1 cell but the header has 2; check for a missing or extra comma"])
    }
}

extension SourceReaderTests {
    /// A missing file is told by the system's error number, not by the words of its message (which change with the
    /// locale and the C library).
    @Test func aMissingFileIsToldByItsErrorNumberNotByItsMessage() {
        let file = SourceFile(path: "scans/north.csv", role: .sighting)
        #expect(
            SourceReader.translate(
                .unreadable(file: "north.csv", reason: "Datei nicht gefunden", errno: ENOENT), file: file)
                == .missingInput(path: "scans/north.csv", what: "file"))
        #expect(
            SourceReader.translate(.unreadable(file: "north.csv", reason: "No such file or directory"), file: file)
                == .unreadableInput(path: "scans/north.csv", reason: "it cannot be read (No such file or directory)"))
    }
}
