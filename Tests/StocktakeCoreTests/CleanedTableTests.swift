import Testing

@testable import StocktakeCore

@Suite("CleanedTable: cleaned.csv")
struct CleanedTableTests {
    static let header =
        "vt_tag,cns_number,serial_number,mac_address,model,description,building,room,mount,custodian,latitude,"
        + "longitude,last_seen,stock_number,status,sources"

    @Test func theHeaderIsTheDocumentedColumnOrder() {
        #expect(CleanedTable.columns.joined(separator: ",") == Self.header)
    }

    @Test func rowsHoldCanonicalTextStatusAndSourcesWithCRLFLineEnds() {
        let text = String(decoding: CleanedTable.csv(OutputFixture.reconciliation), as: UTF8.self)
        let expected =
            Self.header + "\r\n"
            + "004512,C000123,CNF123,aa:bb:cc:dd:ee:01,AP-515,'=SUM(A1),BUR,101,ceiling,\"Doe, Jane\",37.2296,"
            + "-80.4139,2026-03-05,S-1,ok,central.csv; survey.csv\r\n"
            + "004513,C000124,,,AP-515,'-48V PoE,BUR,102,wall,,,,,,missing,central.csv\r\n"
            + "004600,,,,,,BUR,,,,,,,,typo,central.csv\r\n"
            + "770001,,,,,,,,,'@jdoe,,,2026-02-02,,unrecorded,survey.csv\r\n"
        #expect(text == expected)
    }

    @Test func anEmptyReconciliationIsTheHeaderAlone() {
        let empty = Reconciliation(assets: [], discrepancies: [], inputs: [], asOf: OutputFixture.asOf)
        #expect(CleanedTable.csv(empty) == Array((Self.header + "\r\n").utf8))
    }

    @Test func aReconciledAccountWritesOneRowPerTaggedAsset() throws {
        var fixture = ReconcileFixture(
            central: "VT Tag,CNS #,Description,Latitude,Longitude\n004512,C000123,+1 spare,37.5,-80.25")
        fixture.sighting("survey.csv", "P-Tag,Serial\n4512,cnf 123\n990001,X1")
        fixture.sighting("controller.csv", "Serial #,Wired MAC\nZZZ,aa:bb:cc:00:00:09")
        let text = String(decoding: CleanedTable.csv(try fixture.reconcile()), as: UTF8.self)
        #expect(
            text
                == Self.header + "\r\n"
                + "004512,C000123,CNF123,,,'+1 spare,,,,,37.5,-80.25,,,ok,central.csv; survey.csv\r\n"
                + "990001,,X1,,,,,,,,,,,,unrecorded,survey.csv\r\n")
    }
}
