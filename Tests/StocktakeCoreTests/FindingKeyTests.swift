import Testing

@testable import StocktakeCore

@Suite("FindingKey: what makes a finding the same finding")
struct FindingKeyTests {
    static let tag = VTTag(number: 4512, digits: 6)
    static let otherTag = VTTag(number: 4513, digits: 6)
    static let cns = CNSNumber(number: 123, digits: 6)
    static let serial = SerialNumber(canonical: "CNF123")!
    static let mac = MACAddress(value: 0xaabb_ccdd_ee01)

    static func finding(
        _ code: DiscrepancyCode, tag: VTTag? = nil, cns: CNSNumber? = nil, serial: SerialNumber? = nil,
        mac: MACAddress? = nil, field: CanonicalField? = nil, value: String = "", expected: String = "",
        sources: [StocktakeCore.SourceLocation] = [SourceLocation(file: "central.csv", row: 2)],
        message: String = "a sentence"
    ) -> Discrepancy {
        Discrepancy(
            code: code, vtTag: tag, cnsNumber: cns, serialNumber: serial, macAddress: mac, field: field, value: value,
            expected: expected, sources: sources, message: message)
    }

    // MARK: Keys

    @Test(arguments: [DiscrepancyCode.missing, .unrecorded, .noCNS, .stale, .tagCNSMismatch])
    func keyedByTag(code: DiscrepancyCode) {
        let finding = Self.finding(
            code, tag: Self.tag, cns: Self.cns, serial: Self.serial, mac: Self.mac, field: .room, value: "B-12",
            expected: "B-14")
        #expect(FindingKey.key(of: finding) == "vt_tag=004512")
    }

    @Test func aTaglessFindingOfATagCodeIsKeyedByItsFirstIdentifier() {
        #expect(
            FindingKey.key(of: Self.finding(.missing, cns: Self.cns, serial: Self.serial)) == "serial_number=CNF123")
        #expect(FindingKey.key(of: Self.finding(.missing)) == "")
    }

    @Test(arguments: [DiscrepancyCode.duplicateTag, .fieldConflict])
    func keyedByTagAndField(code: DiscrepancyCode) {
        let finding = Self.finding(
            code, tag: Self.tag, cns: Self.cns, serial: Self.serial, field: .room, value: "B-12", expected: "B-14")
        #expect(FindingKey.key(of: finding) == "vt_tag=004512|field=room")
        #expect(FindingKey.key(of: Self.finding(code, tag: Self.tag)) == "vt_tag=004512")
    }

    @Test func sharedValuesAreKeyedByTheSharedValue() {
        let sharedSerial = Self.finding(.sharedSerial, tag: Self.tag, serial: Self.serial, mac: Self.mac)
        #expect(FindingKey.key(of: sharedSerial) == "serial_number=CNF123")
        let sharedMAC = Self.finding(.sharedMAC, tag: Self.tag, serial: Self.serial, mac: Self.mac)
        #expect(FindingKey.key(of: sharedMAC) == "mac_address=aa:bb:cc:dd:ee:01")
        let reused = Self.finding(.cnsReused, tag: Self.tag, cns: Self.cns, serial: Self.serial)
        #expect(FindingKey.key(of: reused) == "cns_number=C000123")
    }

    @Test func aSharedValueFindingWithoutItsValueFallsBackToTheFirstIdentifier() {
        #expect(FindingKey.key(of: Self.finding(.sharedSerial, tag: Self.tag)) == "vt_tag=004512")
        #expect(FindingKey.key(of: Self.finding(.sharedMAC, serial: Self.serial)) == "serial_number=CNF123")
        #expect(FindingKey.key(of: Self.finding(.cnsReused, mac: Self.mac)) == "mac_address=aa:bb:cc:dd:ee:01")
    }

    @Test func noTagIsKeyedByItsFirstIdentifier() {
        let bySerial = Self.finding(.noTag, cns: Self.cns, serial: Self.serial, mac: Self.mac)
        #expect(FindingKey.key(of: bySerial) == "serial_number=CNF123")
        #expect(
            FindingKey.key(of: Self.finding(.noTag, cns: Self.cns, mac: Self.mac)) == "mac_address=aa:bb:cc:dd:ee:01")
        #expect(FindingKey.key(of: Self.finding(.noTag, cns: Self.cns)) == "cns_number=C000123")
    }

    @Test func possibleTypoIsKeyedByTheScannedAndTheCentralTag() {
        let finding = Self.finding(
            .possibleTypo, tag: VTTag(number: 4600, digits: 6), field: .vtTag, value: "004060", expected: "004600",
            sources: [SourceLocation(file: "central.csv", row: 3), SourceLocation(file: "survey.csv", row: 2)])
        #expect(FindingKey.key(of: finding) == "scanned=004060|central=004600")
    }

    @Test(arguments: [DiscrepancyCode.invalidValue, .unknownBuilding])
    func cellFindingsAreKeyedByFileFieldValueAndIdentity(code: DiscrepancyCode) {
        let finding = Self.finding(
            code, tag: Self.tag, serial: Self.serial, field: .building, value: "XYZ",
            sources: [SourceLocation(file: "survey.csv", row: 7)])
        #expect(FindingKey.key(of: finding) == "file=survey.csv|field=building|value=XYZ|vt_tag=004512")
        let untagged = Self.finding(
            code, field: .macAddress, value: "zz:zz", sources: [SourceLocation(file: "survey.csv", row: 7)])
        #expect(FindingKey.key(of: untagged) == "file=survey.csv|field=mac_address|value=zz:zz")
    }

    @Test func duplicateRowIsKeyedByFileAndIdentity() {
        let finding = Self.finding(
            .duplicateRow, tag: Self.tag, value: "row 9",
            sources: [SourceLocation(file: "survey.csv", row: 9), SourceLocation(file: "survey.csv", row: 4)])
        #expect(FindingKey.key(of: finding) == "file=survey.csv|vt_tag=004512")
    }

    // MARK: Row numbers

    /// Every code, with the same identifiers and values twice: once from some rows, once from others.
    static func sameFindingOnOtherRows(_ code: DiscrepancyCode) -> (Discrepancy, Discrepancy) {
        let first = finding(
            code, tag: tag, cns: cns, serial: serial, mac: mac, field: .room, value: "B-12", expected: "B-14",
            sources: [SourceLocation(file: "survey.csv", row: 3), SourceLocation(file: "central.csv", row: 8)],
            message: "survey.csv row 3, central.csv row 8")
        let second = finding(
            code, tag: tag, cns: cns, serial: serial, mac: mac, field: .room, value: "B-12", expected: "B-14",
            sources: [
                SourceLocation(file: "survey.csv", row: 41), SourceLocation(file: "central.csv", row: 2),
                SourceLocation(file: "survey.csv", row: 7),
            ],
            message: "survey.csv row 41, central.csv row 2")
        return (first, second)
    }

    @Test(arguments: DiscrepancyCode.allCases)
    func rowNumbersChangeNeitherKeyNorEvidence(code: DiscrepancyCode) {
        let (first, second) = Self.sameFindingOnOtherRows(code)
        #expect(FindingKey.key(of: first) == FindingKey.key(of: second))
        #expect(FindingKey.evidence(of: first) == FindingKey.evidence(of: second))
        #expect(
            FindingID(code: code, key: FindingKey.key(of: first))
                == FindingID(code: code, key: FindingKey.key(of: second)))
    }

    // MARK: Evidence

    @Test func theEvidenceIsPinned() {
        let missing = Self.finding(.missing, tag: VTTag(number: 4513, digits: 6))
        #expect(FindingKey.evidence(of: missing) == "40bde14fe3c73e36")
        let conflict = Self.finding(
            .fieldConflict, tag: Self.tag, field: .room, value: "B-12", expected: "B-14",
            sources: [SourceLocation(file: "survey.csv", row: 1), SourceLocation(file: "central.csv", row: 1)])
        #expect(FindingKey.evidence(of: conflict) == "ed8f58bebea1bf93")
    }

    @Test func theEvidenceIsSixteenHexDigits() {
        for number in 0..<300 {
            let evidence = FindingKey.evidence(
                of: Self.finding(.missing, tag: VTTag(number: UInt64(number), digits: 6)))
            #expect(evidence.count == 16)
            #expect(evidence.allSatisfy { "0123456789abcdef".contains($0) }, "\(evidence)")
        }
    }

    @Test func theEvidenceChangesWithAValue() {
        let base = Self.finding(.fieldConflict, tag: Self.tag, field: .room, value: "B-12", expected: "B-14")
        let evidence = FindingKey.evidence(of: base)
        var changed = base
        changed.value = "B-13"
        #expect(FindingKey.evidence(of: changed) != evidence)
        changed = base
        changed.expected = "B-15"
        #expect(FindingKey.evidence(of: changed) != evidence)
        changed = base
        changed.serialNumber = Self.serial
        #expect(FindingKey.evidence(of: changed) != evidence)
        changed = base
        changed.cnsNumber = Self.cns
        #expect(FindingKey.evidence(of: changed) != evidence)
        changed = base
        changed.macAddress = Self.mac
        #expect(FindingKey.evidence(of: changed) != evidence)
        changed = base
        changed.field = .building
        #expect(FindingKey.evidence(of: changed) != evidence)
        // The key stays: it is the same finding, resting on something else.
        changed = base
        changed.value = "B-13"
        #expect(FindingKey.key(of: changed) == FindingKey.key(of: base))
    }

    @Test func theEvidenceChangesWithTheSetOfFiles() {
        let base = Self.finding(
            .fieldConflict, tag: Self.tag, field: .room, value: "B-12", expected: "B-14",
            sources: [SourceLocation(file: "survey.csv", row: 1), SourceLocation(file: "central.csv", row: 1)])
        let evidence = FindingKey.evidence(of: base)
        var changed = base
        changed.sources.append(SourceLocation(file: "register.csv", row: 5))
        #expect(FindingKey.evidence(of: changed) != evidence)
        changed.sources = [SourceLocation(file: "central.csv", row: 1)]
        #expect(FindingKey.evidence(of: changed) != evidence)
        // The same files in another order, one of them twice: the same set.
        changed.sources = [
            SourceLocation(file: "central.csv", row: 9), SourceLocation(file: "survey.csv", row: 2),
            SourceLocation(file: "central.csv", row: 10),
        ]
        #expect(FindingKey.evidence(of: changed) == evidence)
    }

    @Test func theMessageIsNotEvidence() {
        let base = Self.finding(.missing, tag: Self.tag, message: "one sentence")
        #expect(FindingKey.evidence(of: base) == FindingKey.evidence(of: Self.finding(.missing, tag: Self.tag)))
    }

    @Test func staleEvidenceIgnoresTheExpectedDate() {
        let stale = Self.finding(.stale, tag: Self.tag, field: .lastSeen, value: "2025-01-02", expected: "2025-11-20")
        var tomorrow = stale
        tomorrow.expected = "2025-11-21"
        #expect(FindingKey.evidence(of: tomorrow) == FindingKey.evidence(of: stale))
        var seenAgain = stale
        seenAgain.value = "2025-03-04"
        #expect(FindingKey.evidence(of: seenAgain) != FindingKey.evidence(of: stale))
        // Other codes do take the expected value.
        var missing = stale
        missing.code = .missing
        var missingTomorrow = tomorrow
        missingTomorrow.code = .missing
        #expect(FindingKey.evidence(of: missing) != FindingKey.evidence(of: missingTomorrow))
    }

    @Test func duplicateRowEvidenceIgnoresTheValue() {
        let duplicate = Self.finding(
            .duplicateRow, tag: Self.tag, value: "row 4", sources: [SourceLocation(file: "survey.csv", row: 9)])
        var moved = duplicate
        moved.value = "row 12"
        #expect(FindingKey.evidence(of: moved) == FindingKey.evidence(of: duplicate))
        #expect(FindingKey.key(of: moved) == FindingKey.key(of: duplicate))
        var invalid = duplicate
        invalid.code = .invalidValue
        var invalidMoved = moved
        invalidMoved.code = .invalidValue
        #expect(FindingKey.evidence(of: invalid) != FindingKey.evidence(of: invalidMoved))
    }
}
