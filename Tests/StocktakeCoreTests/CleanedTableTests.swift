import Testing

@testable import StocktakeCore

@Suite("CleanedTable: cleaned.csv")
struct CleanedTableTests {
    static let header =
        "vt_tag,cns_number,serial_number,mac_address,model,description,building,room,mount,custodian,latitude,"
        + "longitude,last_seen,stock_number,cost,status,sources,building_name,findings"

    @Test func theHeaderIsTheDocumentedColumnOrder() {
        #expect(CleanedTable.columns.joined(separator: ",") == Self.header)
    }

    @Test func rowsHoldCanonicalTextStatusAndSourcesWithCRLFLineEnds() {
        let text = String(decoding: CleanedTable.csv(OutputFixture.reconciliation), as: UTF8.self)
        let expected =
            Self.header + "\r\n"
            + "004512,C000123,CNF123,aa:bb:cc:dd:ee:01,AP-515,'=SUM(A1),BUR,101,ceiling,\"Doe, Jane\",37.2296,"
            + "-80.4139,2026-03-05,S-1,,ok,central.csv; survey.csv,,M7JM-T6YR\r\n"
            + "004513,C000124,,,AP-515,'-48V PoE,BUR,102,wall,,,,,,,missing,central.csv,,4ET3-T8AG\r\n"
            + "004600,,,,,,BUR,,,,,,,,,typo,central.csv,,XVDR-MPCA\r\n"
            + "770001,,,,,,,,,'@jdoe,,,2026-02-02,,,unrecorded,survey.csv,,BD9A-E7S9\r\n"
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
                + "004512,C000123,CNF123,,,'+1 spare,,,,,37.5,-80.25,,,,ok,central.csv; survey.csv,,\r\n"
                + "990001,,X1,,,,,,,,,,,,,unrecorded,survey.csv,,\(try findingID(of: .unrecorded, in: fixture))\r\n")
    }

    /// The id `discrepancies.csv` gives the one finding of `code` of the fixture's reconciliation.
    func findingID(of code: DiscrepancyCode, in fixture: ReconcileFixture) throws -> String {
        let reconciliation = try fixture.reconcile()
        let index = try #require(reconciliation.discrepancies.firstIndex { $0.code == code })
        return reconciliation.statuses[index].id.description
    }

    /// Rows written as bytes are the rows of each asset's cell texts written by `CSVWriter`, for values that need
    /// quotes, a leading `'`, or none.
    @Test func rowsAreTheCellTextsOfEachAssetAsCSVWriterWritesThem() {
        var generator = CSVTestRandomGenerator(seed: 20_261_129)
        let texts = [
            "", "AP-515", "Doe, Jane", "say \"hi\"", "=SUM(A1)", "-48V", "-12.5", "+1", "@x", "two\nlines", "é",
        ]
        func text() -> String? {
            Bool.random(using: &generator) ? nil : texts.randomElement(using: &generator)!
        }
        var assets: [CleanedAsset] = []
        for index in 0..<500 {
            var values = AssetValues()
            values.vtTag = VTTag(number: UInt64(index), digits: 7)
            values.cnsNumber = Bool.random(using: &generator) ? CNSNumber(number: UInt64(index * 3), digits: 6) : nil
            values.serialNumber = text().flatMap { SerialNumber(canonical: $0) }
            values.macAddress = Bool.random(using: &generator) ? MACAddress(value: generator.next()) : nil
            values.model = text()
            values.description = text()
            values.building = text()
            values.room = text()
            values.mount = text()
            values.custodian = text()
            values.latitude = Bool.random(using: &generator) ? Double.random(in: -90...90, using: &generator) : nil
            values.longitude = Bool.random(using: &generator) ? Double.random(in: -0.01...0.01, using: &generator) : nil
            values.lastSeen =
                Bool.random(using: &generator) ? InventoryDate(daysSinceEpoch: Int32(index * 37 - 9000)) : nil
            values.stockNumber = text()
            values.cost = Bool.random(using: &generator) ? UnitCost(cents: Int64(index * 1_001)) : nil
            let status = [AssetStatus.ok, .missing, .unrecorded, .conflict, .typo].randomElement(using: &generator)!
            assets.append(CleanedAsset(values: values, status: status, sourceList: text() ?? "central.csv"))
        }
        let reconciliation = Reconciliation(assets: assets, discrepancies: [], inputs: [], asOf: OutputFixture.asOf)
        var expected = CSVWriter(header: CleanedTable.columns)
        for asset in assets {
            expected.append(
                CanonicalField.allCases.map(asset.values.text) + [asset.status.rawValue, asset.sourceList, "", ""])
        }
        #expect(CleanedTable.csv(reconciliation) == expected.bytes)
    }
}
