import Testing

@testable import StocktakeCore

@Suite("FindingMessage: a finding's sentence, written from its data")
struct FindingMessageTests {
    static let tag = VTTag(number: 4512, digits: 6)

    static func rows(_ file: String, _ numbers: ClosedRange<Int>) -> [StocktakeCore.SourceLocation] {
        numbers.map { StocktakeCore.SourceLocation(file: file, row: $0) }
    }

    @Test func aSentenceGivenWholeIsKept() {
        let finding = Discrepancy(code: .missing, sources: [], message: "Look in the basement.")
        #expect(finding.message == "Look in the basement.")
        #expect(finding.detail == .text("Look in the basement."))
    }

    @Test func aSerialOnATaggedAndAnUntaggedDeviceNamesBoth() throws {
        let serial = try #require(SerialNumber(canonical: "CNF123"))
        let mac = try #require(MACAddress.normalize("aa:bb:cc:dd:ee:01").value)
        let holders = [
            FindingHolder(
                vtTag: Self.tag, serialNumber: serial, macAddress: nil, cnsNumber: nil, rows: Self.rows("a.csv", 2...2)),
            FindingHolder(
                vtTag: nil, serialNumber: serial, macAddress: mac, cnsNumber: nil, rows: Self.rows("b.csv", 7...7)),
        ]
        let finding = Discrepancy(
            code: .sharedSerial, vtTag: Self.tag, serialNumber: serial, field: .serialNumber, sources: [],
            detail: .holders(key: "CNF123", holders, stray: Self.rows("c.csv", 1...1)))
        #expect(
            finding.message
                == "Serial number CNF123 is on VT tag 004512 (a.csv row 2) and the untagged device serial CNF123 and "
                + "MAC aa:bb:cc:dd:ee:01 (b.csv row 7). c.csv row 1 also carries it and could not be matched. "
                + "A serial number belongs to one device: check the devices and correct the wrong record.")
    }

    @Test func aConflictOverManyValuesIsShortenedAndNamesTheTypoPair() {
        let values = (1...9).map { FindingValue(text: "R\($0)", locations: Self.rows("s.csv", $0...$0)) }
        let finding = Discrepancy(
            code: .fieldConflict, vtTag: Self.tag, field: .room, sources: [],
            detail: .conflict(values, typoOf: VTTag(number: 4513, digits: 6)))
        #expect(
            finding.message
                == "Sources disagree on the room of VT tag 004512: R1 in s.csv row 1; R2 in s.csv row 2; "
                + "R3 in s.csv row 3; R4 in s.csv row 4; R5 in s.csv row 5; R6 in s.csv row 6; 3 more. "
                + "The tag has no row in the cleaned sheet: it is a possible typo of central tag 004513. "
                + "Check the device and correct the wrong records.")
    }

    @Test func aRepeatedRowNamesBothRows() {
        let finding = Discrepancy(
            code: .duplicateRow, vtTag: Self.tag, value: "row 3",
            sources: [
                StocktakeCore.SourceLocation(file: "zone.csv", row: 3),
                StocktakeCore.SourceLocation(file: "zone.csv", row: 9),
            ],
            detail: .repeatedRow)
        #expect(
            finding.message
                == "zone.csv row 9 repeats row 3 exactly; it was counted once. Remove the repeated row.")
    }

    @Test func aDamagedCellOnOneRowNamesItsLine() {
        let finding = Discrepancy(
            code: .invalidValue, field: nil, value: "ab\"c", sources: Self.rows("a.csv", 4...4),
            detail: .cell(kind: .damagedText, reason: "has a stray quote", column: "Notes", line: 6))
        #expect(
            finding.message
                == "The cell in column \"Notes\" \"ab\"c\" in a.csv row 4 (line 6) has a stray quote. Check the cell.")
    }
}
