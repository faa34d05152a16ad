import Testing

@testable import StocktakeCore

/// How reading sizes its tables for the rows a file will hold (`ReadState.presize`), and how it takes a free-text
/// or building cell its column has had before (`SeenCells`).
struct ReadStateTests {
    let reader = SourceReader(mapping: .builtIn)
    let file = SourceFile(path: "scan.csv", role: .sighting)

    /// The records of `text` read in one part, as a nightly run reads a file.
    func records(of text: String) -> SourceRows {
        let split = SourceSplit(
            file: file, reader: reader, bytes: Array(text.utf8), name: "scan.csv", cuts: [], atLineBreaks: true,
            chunkSize: 1 << 20)
        return split.readPart(0).data.records
    }

    /// Rows alike in length: `count` of them, tags from 100000 on.
    func rows(_ count: Int, from first: Int = 100_000) -> String {
        (first..<first + count).map { "\($0),CN\($0),AP-515\n" }.joined()
    }

    /// A file of 3,000 rows is sized once its first 256 rows show how long a row is: its records end with room for
    /// about 3,300 (the estimate and a tenth), not the 4,096 an array that grew row by row would have made.
    @Test func aSmallFileIsSizedAfterItsFirstRows() {
        let records = records(of: "Tag,Serial,Model\n" + rows(3_000))
        #expect(records.count == 3_000)
        #expect(records.capacity >= 3_000 && records.capacity < 3_600, "capacity \(records.capacity)")
    }

    /// A file whose first 256 rows are short and whose other rows are long would be estimated at more than 16,384
    /// rows from its start: it is not sized then, so that a wrong early estimate never fills memory; its 300 rows
    /// grow the records as an array grows.
    @Test func aFileEstimatedLargeFromItsFirstRowsWaitsForASurerEstimate() {
        let long = (200_000..<200_044).map { "\($0),CN\($0)," + String(repeating: "M", count: 20_000) + "\n" }
        let records = records(of: "Tag,Serial,Model\n" + rows(256) + long.joined())
        #expect(records.count == 300)
        #expect(records.capacity < 16_384, "capacity \(records.capacity)")
    }

    /// The values of `text` read with `buildings`, and the issues found.
    func read(_ text: String, buildings: BuildingTable? = nil) throws -> SourceData {
        var csv = CSVReader(bytes: Array(text.utf8), name: "scan.csv")
        return try SourceReader(mapping: .builtIn, buildings: buildings).read(file, from: &csv)
    }

    /// Past the first 16,384 rows a row is looked up once its cells are read. One that repeats an earlier row is a
    /// repeat of it and nothing more: the issues its cells have (an invalid MAC address, a stray quote, an extra
    /// cell) are the first occurrence's alone, and the rows after it keep their serials (which are not numbers of
    /// their own, so they wait in the reader's batch as the repeat's did).
    @Test func aRepeatInALargeFileAddsOnlyTheRepeat() throws {
        let first = "7,sn-long-serial-7,AP-515,zz:zz\n8,C\"N8,AP-515,,extra\n"
        var text = "Tag,Serial,Model,MAC\n" + first
        text += (100_000..<120_000).map { "\($0),CN\($0),AP-515,\n" }.joined()
        text += first.split(separator: "\n").enumerated().map { "\($1)\n9\($0),x-after-\($0),AP-515,\n" }.joined()
        let data = try read(text)
        #expect(data.rowCount == 20_006)
        #expect(data.records.count == 20_004)
        #expect(data.issues.map(\.kind) == [.invalidValue, .damagedText, .raggedRow])
        #expect(data.issues.map(\.row) == [1, 2, 2])
        #expect(data.omittedIssues == 0)
        #expect(
            data.repeatedRows.map { [$0.row, $0.firstRow, $0.firstRecordIndex] } == [[20_003, 1, 0], [20_005, 2, 1]])
        #expect(data.records[0].values.serialNumber?.text == "SN-LONG-SERIAL-7")
        #expect(data.records[1].values.serialNumber?.text == "C\"N8")
        #expect(data.records[20_002].values.serialNumber?.text == "X-AFTER-0")
        #expect(data.records[20_003].values.serialNumber?.text == "X-AFTER-1")
        #expect(data.records[20_003].row == 20_006)
    }

    /// A cell its column has had before becomes what it became the first time, blanks and placeholders included;
    /// a building not in the table is reported again on every row that has it.
    @Test func aRepeatedCellBecomesWhatItBecameBeforeAndAnUnknownBuildingIsReportedEachTime() throws {
        let table = BuildingTable([Building(code: "TORG", name: "Torgersen Hall")])
        let data = try read(
            "Tag,Building,Model\n1, Nowhere Hall ,ap-515\n2, Nowhere Hall ,ap-515\n3,torg,n/a\n4,torg,n/a\n"
                + "5,n/a,AP-515\n6,Torgersen  Hall,ap-515\n",
            buildings: table)
        #expect(data.records.map(\.values.building) == [nil, nil, "TORG", "TORG", nil, "TORG"])
        #expect(data.records.map(\.values.model) == ["AP-515", "AP-515", nil, nil, "AP-515", "AP-515"])
        #expect(data.issues.map(\.kind) == [.unknownBuilding, .unknownBuilding])
        #expect(data.issues.map(\.row) == [1, 2])
        #expect(data.issues.map(\.value) == ["Nowhere Hall", "Nowhere Hall"])
        // Spellings of one text share its id in the shared table.
        #expect(Set(data.records.map(\.packed.model).filter { $0 >= 0 }).count == 1)
    }

    /// The same bytes in two columns are taken by each column's own rules: the cells one column has had are not
    /// another's.
    @Test func theSameBytesInTwoColumnsFollowEachColumnsRules() throws {
        let data = try read(
            "Tag,Model,Description,Mount,Room\n"
                + "1, Ceiling  Mount , Ceiling  Mount , Ceiling  Mount , Ceiling  Mount \n"
                + "2, Ceiling  Mount , Ceiling  Mount , Ceiling  Mount , Ceiling  Mount \n")
        for record in data.records {
            #expect(record.values.model == "CEILING  MOUNT")
            #expect(record.values.description == "Ceiling  Mount")
            #expect(record.values.mount == "ceiling  mount")
            #expect(record.values.room == "CEILING MOUNT")
        }
    }
}
