import Testing

@testable import StocktakeCore

@Suite("DiscrepancyTable: discrepancies.csv")
struct DiscrepancyTableTests {
    static let header = "code,severity,vt_tag,cns_number,serial_number,mac_address,field,value,expected,sources,message"

    @Test func theHeaderIsTheDocumentedColumnOrder() {
        #expect(DiscrepancyTable.columns.joined(separator: ",") == Self.header)
    }

    @Test func oneRowsCells() {
        #expect(
            DiscrepancyTable.row(OutputFixture.discrepancies[2]) == [
                "FIELD_CONFLICT", "warning", "004512", "C000123", "CNF123", "aa:bb:cc:dd:ee:01", "room", "-5", "=1+1",
                "survey.csv:1; central.csv:1",
                "The room \"-5\", from survey.csv row 1, <wins> over =1+1 & the rest.",
            ])
        #expect(
            DiscrepancyTable.row(OutputFixture.discrepancies[1]) == [
                "UNRECORDED", "error", "770001", "", "", "", "", "", "", "survey.csv:3",
                "VT tag 770001 is in survey.csv row 3 but not in the central sheet.",
            ])
    }

    @Test func theFileQuotesAndNeutralizesCellsWithCRLFLineEnds() {
        let text = String(decoding: DiscrepancyTable.csv(OutputFixture.reconciliation), as: UTF8.self)
        let expected =
            Self.header + "\r\n"
            + "MISSING,error,004513,C000124,,,,,,central.csv:2,"
            + "VT tag 004513 (CNS C000124) is in central.csv row 2 but no sighting file has seen it.\r\n"
            + "UNRECORDED,error,770001,,,,,,,survey.csv:3,"
            + "VT tag 770001 is in survey.csv row 3 but not in the central sheet.\r\n"
            + "FIELD_CONFLICT,warning,004512,C000123,CNF123,aa:bb:cc:dd:ee:01,room,-5,'=1+1,"
            + "survey.csv:1; central.csv:1,"
            + "\"The room \"\"-5\"\", from survey.csv row 1, <wins> over =1+1 & the rest.\"\r\n"
            + "POSSIBLE_TYPO,warning,004600,,,,vt_tag,004060,004600,central.csv:3; survey.csv:2,"
            + "\"VT tag 004060 in survey.csv row 2 is not in the central sheet, and central tag 004600 "
            + "(central.csv row 3, building BUR) was not seen; two adjacent digits are swapped. "
            + "Check the sticker on the device and correct whichever number is wrong.\"\r\n"
        #expect(text == expected)
    }
}
