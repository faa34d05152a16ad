import Testing

@testable import StocktakeCore

@Suite("DiscrepancyTable: discrepancies.csv")
struct DiscrepancyTableTests {
    static let header =
        "code,severity,vt_tag,cns_number,serial_number,mac_address,field,value,expected,sources,message,"
        + "id,first_seen,state"
    static let asOf = OutputFixture.reconciliation.asOf

    /// The last three cells of a finding seen first tonight.
    static func tail(_ code: DiscrepancyCode, _ key: String) -> String {
        ",\(FindingID(code: code, key: key)),\(asOf),new"
    }

    @Test func theHeaderIsTheDocumentedColumnOrder() {
        #expect(DiscrepancyTable.columns.joined(separator: ",") == Self.header)
    }

    @Test func oneRowsCells() throws {
        let id = try #require(FindingID("F7K2-Q9MD"))
        let seen = try #require(InventoryDate(year: 2026, month: 10, day: 2))
        #expect(
            DiscrepancyTable.row(
                OutputFixture.discrepancies[2], status: FindingStatus(id: id, firstSeen: seen, state: .open))
                == [
                    "FIELD_CONFLICT", "warning", "004512", "C000123", "CNF123", "aa:bb:cc:dd:ee:01", "room", "-5",
                    "=1+1", "survey.csv:1; central.csv:1",
                    "The room \"-5\", from survey.csv row 1, <wins> over =1+1 & the rest.", "F7K2-Q9MD", "2026-10-02",
                    "open",
                ])
        let acknowledged = FindingStatus(
            id: id, firstSeen: seen, state: .acknowledged, note: "Acknowledged on 2026-11-01 by dana (a lab rig).")
        #expect(
            DiscrepancyTable.row(OutputFixture.discrepancies[1], status: acknowledged) == [
                "UNRECORDED", "error", "770001", "", "", "", "", "", "", "survey.csv:3",
                "VT tag 770001 is in survey.csv row 3 but not in the central sheet. "
                    + "Acknowledged on 2026-11-01 by dana (a lab rig).",
                "F7K2-Q9MD", "2026-10-02", "acknowledged",
            ])
    }

    @Test func theFileQuotesAndNeutralizesCellsWithCRLFLineEnds() {
        let text = String(decoding: DiscrepancyTable.csv(OutputFixture.reconciliation), as: UTF8.self)
        let expected =
            Self.header + "\r\n"
            + "MISSING,error,004513,C000124,,,,,,central.csv:2,"
            + "VT tag 004513 (CNS C000124) is in central.csv row 2 but no sighting file has seen it."
            + Self.tail(.missing, "vt_tag=004513") + "\r\n"
            + "UNRECORDED,error,770001,,,,,,,survey.csv:3,"
            + "VT tag 770001 is in survey.csv row 3 but not in the central sheet."
            + Self.tail(.unrecorded, "vt_tag=770001") + "\r\n"
            + "FIELD_CONFLICT,warning,004512,C000123,CNF123,aa:bb:cc:dd:ee:01,room,-5,'=1+1,"
            + "survey.csv:1; central.csv:1,"
            + "\"The room \"\"-5\"\", from survey.csv row 1, <wins> over =1+1 & the rest.\""
            + Self.tail(.fieldConflict, "vt_tag=004512|field=room") + "\r\n"
            + "POSSIBLE_TYPO,warning,004600,,,,vt_tag,004060,004600,central.csv:3; survey.csv:2,"
            + "\"VT tag 004060 in survey.csv row 2 is not in the central sheet, and central tag 004600 "
            + "(central.csv row 3, building BUR) was not seen; two adjacent digits are swapped. "
            + "Check the sticker on the device and correct whichever number is wrong.\""
            + Self.tail(.possibleTypo, "scanned=004060|central=004600") + "\r\n"
        #expect(text == expected)
    }

    @Test func theMessagesAreEachFindingsSentenceInOrder() {
        let reconciliation = OutputFixture.reconciliation
        #expect(DiscrepancyTable.messages(of: reconciliation) == reconciliation.discrepancies.map(\.message))
    }

    /// The file a run writes, from the messages made once: the bytes of `csv(_:)`, each row with the message given
    /// for its finding.
    @Test func theWrittenFileHasTheMessagesItIsGiven() throws {
        let folder = TemporaryFolder()
        let reconciliation = OutputFixture.reconciliation
        let path = folder.path("discrepancies.csv")
        try PieceWriter.write([
            DiscrepancyTable.writer(reconciliation, messages: DiscrepancyTable.messages(of: reconciliation), to: path)
        ])
        #expect(
            folder.read("discrepancies.csv") == String(decoding: DiscrepancyTable.csv(reconciliation), as: UTF8.self))
        let other = reconciliation.discrepancies.indices.map { "message \($0)" }
        try PieceWriter.write([DiscrepancyTable.writer(reconciliation, messages: other, to: path)])
        let rows = try #require(folder.read("discrepancies.csv")).split(separator: "\r\n").dropFirst()
        #expect(
            rows.map { $0.split(separator: ",", omittingEmptySubsequences: false)[10] } == other.map { Substring($0) })
    }

    /// A row written as bytes is `CSVWriter.appendRow` of the row's cells, whatever needs quotes or a guard: the
    /// fixture's findings, sources whose names need quotes or start a formula, no sources, a row number below zero,
    /// every optional value missing or present, a note after the message.
    @Test func aRowWrittenAsBytesIsTheRowOfItsCells() throws {
        let seen = try #require(InventoryDate(year: 2026, month: 10, day: 2))
        let crafted = [
            Discrepancy(
                code: .sharedSerial, vtTag: VTTag(number: 42, digits: 6), cnsNumber: CNSNumber(number: 7, digits: 6),
                serialNumber: SerialNumber(canonical: "-SN1"), macAddress: MACAddress(value: 0xAABB_CCDD_EEFF),
                field: .serialNumber, value: "@x", expected: "a\"b",
                sources: [
                    SourceLocation(file: "=sum.csv", row: 3), SourceLocation(file: "a,b.csv", row: -1),
                    SourceLocation(file: "c.csv", row: 12_345_678_901),
                ], message: "-1 devices"),
            Discrepancy(code: .unrecorded, sources: [], message: ""),
            Discrepancy(
                code: .missing, sources: [SourceLocation(file: "", row: 0)], message: "line\nbreak, \"quoted\""),
        ]
        let statuses = [
            FindingStatus(id: FindingID(code: .missing, key: "a"), firstSeen: seen, state: .open),
            FindingStatus(
                id: FindingID(code: .missing, key: "b"), firstSeen: seen, state: .acknowledged,
                note: "Acknowledged on 2026-11-01 by dana, \"lab\"."),
        ]
        for discrepancy in OutputFixture.discrepancies + crafted {
            for status in statuses {
                let message = discrepancy.message
                var expected: [UInt8] = []
                CSVWriter.appendRow(
                    DiscrepancyTable.row(discrepancy, status: status, message: message), to: &expected)
                var written = ByteBuffer()
                DiscrepancyTable.append(discrepancy, status: status, message: message, to: &written)
                #expect(
                    String(decoding: written.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
            }
        }
    }
}
