import Foundation

@testable import StocktakeCore

/// A small reconciliation built by hand, with awkward text in it, for the tests of the output files.
enum OutputFixture {
    static let asOf = InventoryDate(year: 2026, month: 11, day: 20)!

    static func tag(_ number: UInt64) -> VTTag { VTTag(number: number, digits: 6) }

    static func cns(_ number: UInt64) -> CNSNumber { CNSNumber(number: number, digits: 6) }

    /// 004512 ok (every column filled), 004513 missing, 004600 typo (survey tag 004060 was scanned), 770001
    /// unrecorded.
    static var assets: [CleanedAsset] {
        var first = AssetValues()
        first.vtTag = tag(4512)
        first.cnsNumber = cns(123)
        first.serialNumber = SerialNumber(canonical: "CNF123")
        first.macAddress = MACAddress.normalize("aa:bb:cc:dd:ee:01").value
        first.model = "AP-515"
        first.description = "=SUM(A1)"
        first.building = "BUR"
        first.room = "101"
        first.mount = "ceiling"
        first.custodian = "Doe, Jane"
        first.latitude = 37.2296
        first.longitude = -80.4139
        first.lastSeen = InventoryDate(year: 2026, month: 3, day: 5)
        first.stockNumber = "S-1"
        var second = AssetValues()
        second.vtTag = tag(4513)
        second.cnsNumber = cns(124)
        second.model = "AP-515"
        second.description = "-48V PoE"
        second.building = "BUR"
        second.room = "102"
        second.mount = "wall"
        var typo = AssetValues()
        typo.vtTag = tag(4600)
        typo.building = "BUR"
        var third = AssetValues()
        third.vtTag = tag(770001)
        third.custodian = "@jdoe"
        third.lastSeen = InventoryDate(year: 2026, month: 2, day: 2)
        return [
            CleanedAsset(values: first, status: .ok, sources: ["central.csv", "survey.csv"]),
            CleanedAsset(values: second, status: .missing, sources: ["central.csv"]),
            CleanedAsset(values: typo, status: .typo, sources: ["central.csv"]),
            CleanedAsset(values: third, status: .unrecorded, sources: ["survey.csv"]),
        ]
    }

    static var discrepancies: [Discrepancy] {
        [
            Discrepancy(
                code: .missing, vtTag: tag(4513), cnsNumber: cns(124),
                sources: [SourceLocation(file: "central.csv", row: 2)],
                message: "VT tag 004513 (CNS C000124) is in central.csv row 2 but no sighting file has seen it."),
            Discrepancy(
                code: .unrecorded, vtTag: tag(770001), sources: [SourceLocation(file: "survey.csv", row: 3)],
                message: "VT tag 770001 is in survey.csv row 3 but not in the central sheet."),
            Discrepancy(
                code: .fieldConflict, vtTag: tag(4512), cnsNumber: cns(123),
                serialNumber: SerialNumber(canonical: "CNF123"),
                macAddress: MACAddress.normalize("aa:bb:cc:dd:ee:01").value, field: .room, value: "-5",
                expected: "=1+1",
                sources: [SourceLocation(file: "survey.csv", row: 1), SourceLocation(file: "central.csv", row: 1)],
                message: "The room \"-5\", from survey.csv row 1, <wins> over =1+1 & the rest."),
            Discrepancy(
                code: .possibleTypo, vtTag: tag(4600), field: .vtTag, value: "004060", expected: "004600",
                sources: [SourceLocation(file: "central.csv", row: 3), SourceLocation(file: "survey.csv", row: 2)],
                message: "VT tag 004060 in survey.csv row 2 is not in the central sheet, and central tag 004600 "
                    + "(central.csv row 3, building BUR) was not seen; two adjacent digits are swapped. "
                    + "Check the sticker on the device and correct whichever number is wrong."),
        ]
    }

    static var inputs: [Reconciliation.Input] {
        [
            Reconciliation.Input(
                file: SourceFile(path: "/data/vt-nis/central.csv", role: .central), rows: 2, delimiter: .comma,
                unmapped: ["Notes", "AP Name"], notes: []),
            Reconciliation.Input(
                file: SourceFile(path: "/data/vt-nis/sightings/survey.csv", role: .sighting), rows: 3,
                delimiter: .tab, unmapped: [],
                notes: ["Columns \"Room\" and \"Rm\" both hold room; only \"Room\" is read."]),
        ]
    }

    /// The fixture's reconciliation with the UNRECORDED finding of tag 770001 acknowledged by the clerk.
    static var reconciliationWithAnAcknowledgement: Reconciliation {
        var reconciliation = self.reconciliation
        let unrecorded = FindingID(code: .unrecorded, key: "vt_tag=770001")
        reconciliation.ledger = FindingLedger(
            findings: reconciliation.discrepancies, previous: nil,
            acknowledgements: [unrecorded: Acknowledgement(id: unrecorded, note: "", by: "Dana")], asOf: asOf)
        return reconciliation
    }

    static var reconciliation: Reconciliation {
        Reconciliation(assets: assets, discrepancies: discrepancies, inputs: inputs, asOf: asOf)
    }

    /// 2026-11-20T06:00:00Z.
    static let started = Date(timeIntervalSince1970: 1_795_154_400)

    static var details: RunDetails {
        var details = RunDetails(account: "vt-nis", started: started, outputDirectory: "/srv/stocktake/out/vt-nis")
        details.finished = started.addingTimeInterval(2.5)
        details.durations = [("read", 1.25), ("reconcile", 0.75), ("write", 0.4996)]
        return details
    }
}
