import Testing

@testable import StocktakeCore

@Suite("CleanedAnnotations: the building_name and findings columns of cleaned.csv")
struct CleanedAnnotationsTests {
    static let asOf = OutputFixture.asOf

    static func asset(_ tag: UInt64, building: String?) -> CleanedAsset {
        var values = AssetValues()
        values.vtTag = VTTag(number: tag, digits: 6)
        values.building = building
        return CleanedAsset(values: values, status: .ok, sourceList: "central.csv")
    }

    static func location(_ row: Int) -> StocktakeCore.SourceLocation {
        StocktakeCore.SourceLocation(file: "central.csv", row: row)
    }

    /// Three assets: 000001 and 000002 share a serial, 000001 also disagrees on its room, 000003 is stale.
    static var findings: [Discrepancy] {
        let shared = SerialNumber(canonical: "SN1")
        let holders = [1, 2].map { tag in
            FindingHolder(
                vtTag: VTTag(number: UInt64(tag), digits: 6), serialNumber: shared, macAddress: nil, cnsNumber: nil,
                rows: [location(tag)])
        }
        return [
            Discrepancy(
                code: .sharedSerial, vtTag: VTTag(number: 1, digits: 6), serialNumber: shared, field: .serialNumber,
                value: "000002", sources: [location(1), location(2)],
                detail: .holders(key: "SN1", holders, stray: [])),
            Discrepancy(
                code: .fieldConflict, vtTag: VTTag(number: 1, digits: 6), field: .room, value: "101",
                expected: "102", sources: [location(1)], message: "room differs"),
            Discrepancy(
                code: .stale, vtTag: VTTag(number: 3, digits: 6), sources: [location(3)], message: "not seen"),
        ]
    }

    static func reconciliation(acknowledging acknowledged: Int? = nil) -> Reconciliation {
        var reconciliation = Reconciliation(
            assets: [asset(1, building: "TORG"), asset(2, building: "NOPE"), asset(3, building: nil)],
            discrepancies: findings, inputs: [], asOf: asOf)
        var acknowledgements: [FindingID: Acknowledgement] = [:]
        if let acknowledged {
            let finding = findings[acknowledged]
            let id = FindingID(code: finding.code, key: FindingKey.key(of: finding))
            acknowledgements[id] = Acknowledgement(
                id: id, note: "known", until: nil, by: "clerk", acknowledgedOn: asOf,
                evidence: FindingKey.evidence(of: finding))
        }
        reconciliation.ledger = FindingLedger(
            findings: findings, previous: nil, acknowledgements: acknowledgements, asOf: asOf)
        return reconciliation
    }

    static func ids(_ reconciliation: Reconciliation) -> [String] {
        reconciliation.statuses.map(\.id.description)
    }

    /// The `findings` cell the tables write for the reconciliation's asset at `index`.
    static func cell(_ annotations: CleanedAnnotations, _ index: Int) -> String? {
        annotations.withFindings(ofAsset: index) { String(decoding: $0, as: UTF8.self) }
    }

    @Test func everyAssetAFindingNamesListsItsIdInTheOrderOfDiscrepanciesCSV() {
        let reconciliation = Self.reconciliation()
        let ids = Self.ids(reconciliation)
        let annotations = CleanedAnnotations(reconciliation)
        // The shared serial names both holders; the conflict only 000001.
        #expect(Self.cell(annotations, 0) == ids[0] + "; " + ids[1])
        #expect(Self.cell(annotations, 1) == ids[0])
        #expect(Self.cell(annotations, 2) == ids[2])
    }

    @Test func anAcknowledgedFindingIsLeftOut() {
        let reconciliation = Self.reconciliation(acknowledging: 0)
        #expect(reconciliation.statuses.map(\.state) == [.acknowledged, .new, .new])
        let ids = Self.ids(reconciliation)
        let annotations = CleanedAnnotations(reconciliation)
        #expect(Self.cell(annotations, 0) == ids[1])
        #expect(Self.cell(annotations, 1) == nil)
    }

    @Test func anAssetWithoutFindingsOrTagHasAnEmptyCell() {
        let untagged = CleanedAsset(values: AssetValues(), status: .ok, sourceList: "")
        let reconciliation = Reconciliation(
            assets: [Self.asset(7, building: nil), untagged], discrepancies: Self.findings, inputs: [],
            asOf: Self.asOf)
        let annotations = CleanedAnnotations(reconciliation)
        #expect(Self.cell(annotations, 0) == nil)
        #expect(Self.cell(annotations, 1) == nil)
    }

    @Test func theBuildingNameComesFromTheBuildingsTableAndIsEmptyForAnUnknownCode() {
        var reconciliation = Self.reconciliation()
        #expect(
            reconciliation.assets.map { CleanedAnnotations(reconciliation).buildingName(of: $0) } == [nil, nil, nil])
        reconciliation.buildings = BuildingTable([Building(code: "TORG", name: "Torgersen Hall")])
        let annotations = CleanedAnnotations(reconciliation)
        #expect(reconciliation.assets.map { annotations.buildingName(of: $0) } == ["Torgersen Hall", nil, nil])
    }

    /// Many tags, some with no finding, some with one, some with two: each asset's cell holds its own ids and no
    /// other's, whatever order the table keeps the cells in.
    @Test func everyOneOfManyAssetsGetsItsOwnCell() {
        let count = 300
        var findings: [Discrepancy] = []
        for tag in 1...count where tag % 3 != 0 {
            let vtTag = VTTag(number: UInt64(tag), digits: 6)
            findings.append(
                Discrepancy(code: .stale, vtTag: vtTag, sources: [Self.location(tag)], message: "not seen"))
            if tag % 5 == 0 {
                findings.append(
                    Discrepancy(
                        code: .fieldConflict, vtTag: vtTag, field: .room, value: "101", expected: "102",
                        sources: [Self.location(tag)], message: "room differs"))
            }
        }
        var reconciliation = Reconciliation(
            assets: (1...count).map { Self.asset(UInt64($0), building: nil) }, discrepancies: findings, inputs: [],
            asOf: Self.asOf)
        reconciliation.ledger = FindingLedger(
            findings: findings, previous: nil, acknowledgements: [:], asOf: Self.asOf)
        let ids = Self.ids(reconciliation)
        let annotations = CleanedAnnotations(reconciliation)
        for index in reconciliation.assets.indices {
            let tag = index + 1
            let expected = findings.indices.filter { findings[$0].vtTag?.number == UInt64(tag) }.map { ids[$0] }
            #expect(
                Self.cell(annotations, index) == (expected.isEmpty ? nil : expected.joined(separator: "; ")),
                "asset \(tag)")
        }
    }

    /// The tables look cells up by the asset's place in the reconciliation. In tag order (as the tables come), in
    /// a shuffled order, with tag-less assets and tags that have no finding between them, each asset gets the cell
    /// its tag has, and an asset without a tag or finding gets none.
    @Test(arguments: ["ascending", "descending", "shuffled"])
    func eachAssetOfTheReconciliationGetsItsTagsCellInAnyOrder(order: String) {
        var random = SeededRandom(seed: 41)
        var tags = (1...2_000).map { UInt64($0 * 7) }
        switch order {
        case "descending": tags.reverse()
        case "shuffled": tags.shuffle(using: &random)
        default: break
        }
        // Runs of tags without a finding, short and long, so that the pass both steps and searches ahead.
        let flagged = Set(tags.filter { $0 % 3 == 0 || ($0 / 700) % 2 == 1 && $0 % 11 == 0 })
        var assets: [CleanedAsset] = []
        for (place, tag) in tags.enumerated() {
            if place % 97 == 0 { assets.append(CleanedAsset(values: AssetValues(), status: .ok, sourceList: "")) }
            assets.append(Self.asset(tag, building: nil))
        }
        // Findings on tags no asset has, below the first and in runs between two assets' tags: their cells are made
        // and given to no one, and a pass in tag order steps over them.
        let strays: [UInt64] = [3] + (1...40).flatMap { run in (1...3).map { UInt64(run * 350 + $0) } }
        let findings = (flagged.sorted() + strays).map { tag in
            Discrepancy(
                code: .stale, vtTag: VTTag(number: tag, digits: 6), sources: [Self.location(Int(tag))],
                message: "not seen")
        }
        var reconciliation = Reconciliation(assets: assets, discrepancies: findings, inputs: [], asOf: Self.asOf)
        reconciliation.ledger = FindingLedger(
            findings: findings, previous: nil, acknowledgements: [:], asOf: Self.asOf)
        let ids = Self.ids(reconciliation)
        var idOfTag: [UInt64: String] = [:]
        for (index, finding) in findings.enumerated() { idOfTag[finding.vtTag!.number] = ids[index] }
        let annotations = CleanedAnnotations(reconciliation)
        var given = 0
        for (index, asset) in assets.enumerated() {
            let cell = Self.cell(annotations, index)
            let expected = asset.values.vtTag.flatMap { idOfTag[$0.number] }
            #expect(cell == expected, "asset \(index), tag \(String(describing: asset.values.vtTag))")
            if cell != nil { given += 1 }
        }
        #expect(given == flagged.count)
    }

    @Test func cleanedCSVAndCleanedXLSXEndWithBothColumns() throws {
        var reconciliation = Self.reconciliation()
        reconciliation.buildings = BuildingTable([Building(code: "TORG", name: "Torgersen Hall, North")])
        let ids = Self.ids(reconciliation)
        let text = String(decoding: CleanedTable.csv(reconciliation), as: UTF8.self)
        let lines = text.split(separator: "\r\n").map(String.init)
        #expect(lines[0].hasSuffix(",status,sources,building_name,findings"))
        #expect(lines[1] == "000001,,,,,,TORG,,,,,,,,,ok,central.csv,\"Torgersen Hall, North\",\(ids[0]); \(ids[1])")
        #expect(lines[2] == "000002,,,,,,NOPE,,,,,,,,,ok,central.csv,,\(ids[0])")
        #expect(lines[3] == "000003,,,,,,,,,,,,,,,ok,central.csv,,\(ids[2])")
        #expect(CleanedWorkbook.columns.map(\.name) == CleanedTable.columns)
    }
}
