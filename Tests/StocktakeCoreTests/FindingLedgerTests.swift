import Testing

@testable import StocktakeCore

@Suite("FindingLedger: findings across nights")
struct FindingLedgerTests {
    static func day(_ day: Int) -> InventoryDate { InventoryDate(year: 2026, month: 11, day: day)! }

    static func tag(_ number: UInt64) -> VTTag { VTTag(number: number, digits: 6) }

    static func missing(_ number: UInt64, row: Int = 2) -> Discrepancy {
        Discrepancy(
            code: .missing, vtTag: tag(number), sources: [SourceLocation(file: "central.csv", row: row)],
            message: "VT tag \(tag(number)) is in central.csv row \(row) but no sighting file has seen it.")
    }

    static func conflict(_ number: UInt64, value: String = "B-12", rows: (Int, Int) = (1, 1)) -> Discrepancy {
        Discrepancy(
            code: .fieldConflict, vtTag: tag(number), field: .room, value: value, expected: "B-14",
            sources: [
                SourceLocation(file: "survey.csv", row: rows.0), SourceLocation(file: "central.csv", row: rows.1),
            ],
            message: "The room differs.")
    }

    static func sharedMAC(rows: (Int, Int) = (3, 4)) -> Discrepancy {
        Discrepancy(
            code: .sharedMAC, vtTag: tag(4600), macAddress: MACAddress(value: 0xaabb_ccdd_ee01),
            sources: [
                SourceLocation(file: "survey.csv", row: rows.0), SourceLocation(file: "survey.csv", row: rows.1),
            ],
            message: "One MAC on two tags.")
    }

    static func id(_ finding: Discrepancy) -> FindingID {
        FindingID(code: finding.code, key: FindingKey.key(of: finding))
    }

    static let night1Findings = [missing(4513), conflict(4512), sharedMAC()]

    static func night1() -> FindingLedger {
        FindingLedger(findings: night1Findings, previous: nil, asOf: day(1))
    }

    // MARK: New, open, resolved

    @Test func onTheFirstNightEveryFindingIsNew() {
        let ledger = Self.night1()
        #expect(
            ledger.statuses
                == Self.night1Findings.map { FindingStatus(id: Self.id($0), firstSeen: Self.day(1), state: .new) })
        #expect(ledger.resolved.isEmpty)
        #expect(ledger.notes.isEmpty)
        #expect(
            ledger.entries == [
                LedgerEntry(
                    id: Self.id(Self.missing(4513)), code: .missing, key: "vt_tag=004513", firstSeen: Self.day(1),
                    lastSeen: Self.day(1), state: .new, evidence: FindingKey.evidence(of: Self.missing(4513)),
                    vtTag: "004513"),
                LedgerEntry(
                    id: Self.id(Self.conflict(4512)), code: .fieldConflict, key: "vt_tag=004512|field=room",
                    firstSeen: Self.day(1), lastSeen: Self.day(1), state: .new,
                    evidence: FindingKey.evidence(of: Self.conflict(4512)), vtTag: "004512", field: "room",
                    value: "B-12", expected: "B-14"),
                LedgerEntry(
                    id: Self.id(Self.sharedMAC()), code: .sharedMAC, key: "mac_address=aa:bb:cc:dd:ee:01",
                    firstSeen: Self.day(1), lastSeen: Self.day(1), state: .new,
                    evidence: FindingKey.evidence(of: Self.sharedMAC()), vtTag: "004600",
                    macAddress: "aa:bb:cc:dd:ee:01"),
            ])
        #expect(Self.id(Self.missing(4513)).description == "4ET3-T8AG")
    }

    @Test func theSecondNightTheSameFindingsOnOtherRowsAreOpenWithTheSameIds() {
        let first = Self.night1()
        // The rows were shuffled and renumbered, and the findings come in another order.
        let tonight = [Self.sharedMAC(rows: (40, 7)), Self.conflict(4512, rows: (9, 30)), Self.missing(4513, row: 77)]
        let second = FindingLedger(findings: tonight, previous: first.entries, asOf: Self.day(2))
        let idsBefore = Set(first.statuses.map(\.id))
        #expect(Set(second.statuses.map(\.id)) == idsBefore)
        #expect(second.statuses.map(\.id) == [first.statuses[2].id, first.statuses[1].id, first.statuses[0].id])
        #expect(second.statuses.allSatisfy { $0.state == .open && $0.firstSeen == Self.day(1) && $0.note.isEmpty })
        #expect(second.entries.count == 3)
        #expect(second.entries.allSatisfy { $0.firstSeen == Self.day(1) && $0.lastSeen == Self.day(2) })
        #expect(
            second.entries.map(\.evidence) == [
                first.entries[2].evidence, first.entries[1].evidence, first.entries[0].evidence,
            ])
        #expect(second.resolved.isEmpty)
        // A third night keeps the first date.
        let third = FindingLedger(findings: Self.night1Findings, previous: second.entries, asOf: Self.day(3))
        #expect(third.statuses.allSatisfy { $0.state == .open && $0.firstSeen == Self.day(1) })
    }

    @Test func anUnrelatedFindingLeavesTheOthersAsTheyWere() {
        let first = Self.night1()
        let second = FindingLedger(
            findings: [Self.missing(1)] + Self.night1Findings, previous: first.entries, asOf: Self.day(2))
        #expect(second.statuses.map(\.state) == [.new, .open, .open, .open])
        #expect(Array(second.statuses.map(\.id).dropFirst()) == first.statuses.map(\.id))
    }

    @Test func aFindingGoneIsResolved() throws {
        let first = Self.night1()
        let second = FindingLedger(
            findings: [Self.conflict(4512), Self.sharedMAC()], previous: first.entries, asOf: Self.day(2))
        var gone = first.entries[0]
        gone.state = .resolved
        gone.resolvedOn = Self.day(2)
        #expect(second.resolved == [gone])
        #expect(gone.lastSeen == Self.day(1))
        // The ledger keeps it after tonight's findings, to know it if it comes back.
        #expect(second.entries.map(\.id) == [first.entries[1].id, first.entries[2].id, first.entries[0].id])
        #expect(second.entries[2] == gone)
        // The night after, it is no longer "gone since the last run", but the ledger still keeps it.
        let third = FindingLedger(
            findings: [Self.conflict(4512), Self.sharedMAC()], previous: second.entries, asOf: Self.day(3))
        #expect(third.resolved.isEmpty)
        #expect(third.entries.last == gone)
    }

    @Test func aFindingGoneAfterItsAssetWasPushedIsFixedByPush() {
        var first = Self.night1()
        first.markPushed(tagNumbers: [4513, 4512])
        #expect(first.entries.map(\.pushed) == [true, true, false])
        // The push fixed the missing asset; the conflict stands and is no longer marked.
        let second = FindingLedger(
            findings: [Self.conflict(4512), Self.sharedMAC()], previous: first.entries, asOf: Self.day(2))
        #expect(second.resolved.map(\.state) == [.fixedByPush])
        #expect(second.resolved.map(\.id) == [first.entries[0].id])
        #expect(second.resolved[0].resolvedOn == Self.day(2))
        #expect(second.resolved[0].pushed == false)
        #expect(second.statuses.map(\.state) == [.open, .open])
        #expect(second.entries.map(\.pushed) == [false, false, false])
        // Gone the night after without a push: resolved.
        let third = FindingLedger(findings: [Self.sharedMAC()], previous: second.entries, asOf: Self.day(3))
        #expect(third.resolved.map(\.state) == [.resolved])
        #expect(third.resolved.map(\.id) == [first.entries[1].id])
    }

    @Test func markPushedReadsThePossibleTyposCentralTagAndSkipsGoneFindings() {
        let typo = Discrepancy(
            code: .possibleTypo, vtTag: Self.tag(4600), field: .vtTag, value: "004060", expected: "004600",
            sources: [SourceLocation(file: "central.csv", row: 3), SourceLocation(file: "survey.csv", row: 2)],
            message: "")
        var ledger = FindingLedger(findings: [typo, Self.missing(4513)], previous: nil, asOf: Self.day(1))
        ledger.markPushed(tagNumbers: [])
        #expect(ledger.entries.map(\.pushed) == [false, false])
        ledger.markPushed(tagNumbers: [4060])
        #expect(ledger.entries.map(\.pushed) == [false, false])
        ledger.markPushed(tagNumbers: [4600])
        #expect(ledger.entries.map(\.pushed) == [true, false])
        // A finding already resolved is not marked.
        var later = FindingLedger(findings: [typo], previous: ledger.entries, asOf: Self.day(2))
        later.markPushed(tagNumbers: [4513])
        #expect(later.entries.map(\.state) == [.open, .resolved])
        #expect(later.entries.map(\.pushed) == [false, false])
    }

    @Test func aResolvedFindingThatComesBackIsNewWithItsOldDatesInTheNote() {
        let first = Self.night1()
        let second = FindingLedger(
            findings: [Self.conflict(4512), Self.sharedMAC()], previous: first.entries, asOf: Self.day(2))
        let third = FindingLedger(findings: Self.night1Findings, previous: second.entries, asOf: Self.day(5))
        #expect(
            third.statuses[0]
                == FindingStatus(
                    id: first.statuses[0].id, firstSeen: Self.day(5), state: .new,
                    note: "Reopened: first seen 2026-11-01, resolved on 2026-11-02."))
        #expect(third.entries[0].note == "Reopened: first seen 2026-11-01, resolved on 2026-11-02.")
        #expect(third.entries[0].resolvedOn == nil)
        #expect(third.statuses[1].state == .open)
        #expect(third.resolved.isEmpty)
        // It is in the ledger once.
        #expect(third.entries.map(\.id) == first.entries.map(\.id))
        // The night after, it is simply open, since the night it came back.
        let fourth = FindingLedger(findings: Self.night1Findings, previous: third.entries, asOf: Self.day(6))
        #expect(fourth.statuses[0] == FindingStatus(id: first.statuses[0].id, firstSeen: Self.day(5), state: .open))
    }

    @Test func resolvedFindingsOlderThanAYearLeaveTheLedger() {
        let asOf = Self.day(20)
        func resolved(_ number: UInt64, daysAgo: Int) -> LedgerEntry {
            LedgerEntry(
                id: Self.id(Self.missing(number)), code: .missing, key: "vt_tag=\(Self.tag(number))",
                firstSeen: asOf.adding(days: -daysAgo - 10), lastSeen: asOf.adding(days: -daysAgo - 1),
                state: .resolved, resolvedOn: asOf.adding(days: -daysAgo), evidence: "0123456789abcdef",
                vtTag: Self.tag(number).description)
        }
        let previous = [
            resolved(1, daysAgo: 1), resolved(2, daysAgo: FindingLedger.keptDays),
            resolved(3, daysAgo: FindingLedger.keptDays + 1), resolved(4, daysAgo: 1000),
        ]
        #expect(FindingLedger.keptDays == 366)
        let ledger = FindingLedger(findings: [], previous: previous, asOf: asOf)
        #expect(ledger.entries == [previous[0], previous[1]])
        #expect(ledger.resolved.isEmpty)
        #expect(ledger.statuses.isEmpty)
    }

    // MARK: Acknowledgements

    static let acknowledgedOn = day(1)

    static func acknowledgement(
        of finding: Discrepancy, until: InventoryDate? = nil, evidence: String? = nil
    ) -> Acknowledgement {
        Acknowledgement(
            id: id(finding), note: "lab test rig", until: until, by: "Dana Clerk", acknowledgedOn: acknowledgedOn,
            evidence: evidence ?? FindingKey.evidence(of: finding))
    }

    static let spoken = "acknowledged on 2026-11-01 by Dana Clerk (lab test rig)"

    @Test func anAcknowledgedFindingIsAcknowledgedWithItsNote() {
        let finding = Self.sharedMAC()
        let acknowledgement = Self.acknowledgement(of: finding)
        let first = Self.night1()
        let second = FindingLedger(
            findings: Self.night1Findings, previous: first.entries,
            acknowledgements: [acknowledgement.id: acknowledgement], asOf: Self.day(2))
        #expect(
            second.statuses[2]
                == FindingStatus(
                    id: acknowledgement.id, firstSeen: Self.day(1), state: .acknowledged,
                    note: "Acknowledged on 2026-11-01 by Dana Clerk (lab test rig)."))
        #expect(second.entries[2].acknowledgedEvidence == FindingKey.evidence(of: finding))
        #expect(second.statuses.map(\.state) == [.open, .open, .acknowledged])
        #expect(second.notes.isEmpty)
        // It stays acknowledged night after night.
        let third = FindingLedger(
            findings: Self.night1Findings, previous: second.entries,
            acknowledgements: [acknowledgement.id: acknowledgement], asOf: Self.day(3))
        #expect(third.statuses[2].state == .acknowledged)
        #expect(third.statuses[2].firstSeen == Self.day(1))
    }

    @Test func theNoteOfAnAcknowledgementSaysOnlyWhatIsKnown() {
        let finding = Self.missing(4513)
        let bare = Acknowledgement(id: Self.id(finding), note: "")
        let ledger = FindingLedger(
            findings: [finding], previous: nil, acknowledgements: [bare.id: bare], asOf: Self.day(1))
        #expect(ledger.statuses[0].state == .acknowledged)
        #expect(ledger.statuses[0].note == "Acknowledged.")
        let noted = Acknowledgement(id: Self.id(finding), note: "sold", by: "Sam")
        let other = FindingLedger(
            findings: [finding], previous: nil, acknowledgements: [noted.id: noted], asOf: Self.day(1))
        #expect(other.statuses[0].note == "Acknowledged by Sam (sold).")
    }

    @Test func anAcknowledgedFindingWhoseEvidenceChangedReopensAsNewThenOpen() {
        let acknowledgement = Self.acknowledgement(of: Self.conflict(4512))
        let acknowledgements = [acknowledgement.id: acknowledgement]
        let first = FindingLedger(
            findings: Self.night1Findings, previous: nil, acknowledgements: acknowledgements, asOf: Self.day(1))
        #expect(first.statuses[1].state == .acknowledged)
        // The survey now says another room.
        let changed = [Self.missing(4513), Self.conflict(4512, value: "B-13"), Self.sharedMAC()]
        let second = FindingLedger(
            findings: changed, previous: first.entries, acknowledgements: acknowledgements, asOf: Self.day(2))
        let note = "Reopened: its evidence changed since it was acknowledged (\(Self.spoken))."
        #expect(
            second.statuses[1]
                == FindingStatus(id: acknowledgement.id, firstSeen: Self.day(1), state: .new, note: note))
        let third = FindingLedger(
            findings: changed, previous: second.entries, acknowledgements: acknowledgements, asOf: Self.day(3))
        #expect(
            third.statuses[1]
                == FindingStatus(id: acknowledgement.id, firstSeen: Self.day(1), state: .open, note: note))
        #expect(third.notes.isEmpty)
    }

    @Test func anAcknowledgementRecordedWithOtherEvidenceDoesNotCoverAFindingSeenFirstTonight() {
        let acknowledgement = Self.acknowledgement(of: Self.conflict(4512), evidence: "0123456789abcdef")
        let ledger = FindingLedger(
            findings: [Self.conflict(4512)], previous: nil, acknowledgements: [acknowledgement.id: acknowledgement],
            asOf: Self.day(1))
        #expect(
            ledger.statuses[0]
                == FindingStatus(
                    id: acknowledgement.id, firstSeen: Self.day(1), state: .new,
                    note: "Reopened: its evidence changed since it was acknowledged (\(Self.spoken))."))
    }

    @Test func anAcknowledgementHoldsUpToItsUntilDateThenTheFindingReopens() {
        let acknowledgement = Self.acknowledgement(of: Self.sharedMAC(), until: Self.day(2))
        let acknowledgements = [acknowledgement.id: acknowledgement]
        let first = FindingLedger(
            findings: [Self.sharedMAC()], previous: nil, acknowledgements: acknowledgements, asOf: Self.day(1))
        let second = FindingLedger(
            findings: [Self.sharedMAC()], previous: first.entries, acknowledgements: acknowledgements,
            asOf: Self.day(2))
        #expect(first.statuses[0].state == .acknowledged)
        #expect(second.statuses[0].state == .acknowledged)
        let third = FindingLedger(
            findings: [Self.sharedMAC()], previous: second.entries, acknowledgements: acknowledgements,
            asOf: Self.day(3))
        let note = "Reopened: the acknowledgement ran until 2026-11-02 (\(Self.spoken))."
        #expect(
            third.statuses[0] == FindingStatus(id: acknowledgement.id, firstSeen: Self.day(1), state: .new, note: note))
        let fourth = FindingLedger(
            findings: [Self.sharedMAC()], previous: third.entries, acknowledgements: acknowledgements,
            asOf: Self.day(4))
        #expect(
            fourth.statuses[0]
                == FindingStatus(id: acknowledgement.id, firstSeen: Self.day(1), state: .open, note: note))
    }

    @Test func aHandKeptAcknowledgementKeepsTheEvidenceOfTheFirstRunItCovered() {
        // A clerk's sheet: only the id and a note, no evidence.
        let handKept = Acknowledgement(id: Self.id(Self.conflict(4512)), note: "the survey is wrong")
        let acknowledgements = [handKept.id: handKept]
        let first = FindingLedger(
            findings: [Self.conflict(4512)], previous: nil, acknowledgements: acknowledgements, asOf: Self.day(1))
        #expect(first.statuses[0].state == .acknowledged)
        #expect(first.statuses[0].note == "Acknowledged (the survey is wrong).")
        #expect(first.entries[0].acknowledgedEvidence == FindingKey.evidence(of: Self.conflict(4512)))
        let second = FindingLedger(
            findings: [Self.conflict(4512, rows: (5, 6))], previous: first.entries,
            acknowledgements: acknowledgements, asOf: Self.day(2))
        #expect(second.statuses[0].state == .acknowledged)
        #expect(second.entries[0].acknowledgedEvidence == FindingKey.evidence(of: Self.conflict(4512)))
        // The survey changes: the acknowledgement no longer covers the finding, tonight or after.
        let changed = [Self.conflict(4512, value: "B-13")]
        let note = "Reopened: its evidence changed since it was acknowledged (acknowledged (the survey is wrong))."
        let third = FindingLedger(
            findings: changed, previous: second.entries, acknowledgements: acknowledgements, asOf: Self.day(3))
        #expect(
            third.statuses[0] == FindingStatus(id: handKept.id, firstSeen: Self.day(1), state: .new, note: note))
        let fourth = FindingLedger(
            findings: changed, previous: third.entries, acknowledgements: acknowledgements, asOf: Self.day(4))
        #expect(
            fourth.statuses[0] == FindingStatus(id: handKept.id, firstSeen: Self.day(1), state: .open, note: note))
        let fifth = FindingLedger(
            findings: changed, previous: fourth.entries, acknowledgements: acknowledgements, asOf: Self.day(5))
        #expect(fifth.statuses[0].state == .open)
        // Back to what was acknowledged: covered again.
        let sixth = FindingLedger(
            findings: [Self.conflict(4512)], previous: fifth.entries, acknowledgements: acknowledgements,
            asOf: Self.day(6))
        #expect(sixth.statuses[0].state == .acknowledged)
    }

    @Test func anExpiredAcknowledgementDoesNotCoverAFindingSeenFirstTonight() {
        let acknowledgement = Self.acknowledgement(of: Self.sharedMAC(), until: Self.day(4))
        let ledger = FindingLedger(
            findings: [Self.sharedMAC()], previous: nil, acknowledgements: [acknowledgement.id: acknowledgement],
            asOf: Self.day(5))
        #expect(
            ledger.statuses == [
                FindingStatus(
                    id: acknowledgement.id, firstSeen: Self.day(5), state: .new,
                    note: "Reopened: the acknowledgement ran until 2026-11-04 (\(Self.spoken)).")
            ])
    }

    @Test func anAcknowledgedFindingThatIsGoneIsResolvedAndItsAcknowledgementUnused() {
        let acknowledgement = Self.acknowledgement(of: Self.missing(4513))
        let acknowledgements = [acknowledgement.id: acknowledgement]
        var first = FindingLedger(
            findings: Self.night1Findings, previous: nil, acknowledgements: acknowledgements, asOf: Self.day(1))
        #expect(first.statuses[0].state == .acknowledged)
        first.markPushed(tagNumbers: [4513])
        let second = FindingLedger(
            findings: [Self.conflict(4512), Self.sharedMAC()], previous: first.entries,
            acknowledgements: acknowledgements, asOf: Self.day(2))
        #expect(second.resolved.map(\.id) == [acknowledgement.id])
        #expect(second.resolved.map(\.state) == [.fixedByPush])
        #expect(
            second.notes == [
                "1 acknowledgement matches no finding tonight (\(acknowledgement.id)); remove it once its finding is "
                    + "fixed."
            ])
    }

    @Test func unusedAcknowledgementsAreNamed() throws {
        let one = Acknowledgement(id: try #require(FindingID("0000-0001")), note: "")
        let ledger = FindingLedger(
            findings: Self.night1Findings, previous: nil, acknowledgements: [one.id: one], asOf: Self.day(1))
        #expect(
            ledger.notes == [
                "1 acknowledgement matches no finding tonight (0000-0001); remove it once its finding is fixed."
            ])
        #expect(ledger.statuses.allSatisfy { $0.state == .new })
        var many: [FindingID: Acknowledgement] = [:]
        for text in ["0000-0006", "0000-0002", "0000-0005", "0000-0003", "0000-0004", "0000-0001"] {
            let id = try #require(FindingID(text))
            many[id] = Acknowledgement(id: id, note: "")
        }
        let used = Self.acknowledgement(of: Self.sharedMAC())
        many[used.id] = used
        let other = FindingLedger(
            findings: Self.night1Findings, previous: nil, acknowledgements: many, asOf: Self.day(1))
        #expect(
            other.notes == [
                "6 acknowledgements match no finding tonight (0000-0001, 0000-0002, 0000-0003, 0000-0004, 0000-0005, …); "
                    + "remove them once their findings are fixed."
            ])
        #expect(other.statuses[2].state == .acknowledged)
    }

    // MARK: Same key twice

    @Test func twoFindingsWithOneKeyGetDistinctIds() {
        let twice = [Self.missing(4513, row: 2), Self.missing(4513, row: 9), Self.missing(4513, row: 11)]
        let ledger = FindingLedger(findings: twice, previous: nil, asOf: Self.day(1))
        #expect(
            ledger.statuses.map(\.id) == [
                FindingID(code: .missing, key: "vt_tag=004513"), FindingID(code: .missing, key: "vt_tag=004513|#2"),
                FindingID(code: .missing, key: "vt_tag=004513|#3"),
            ])
        #expect(ledger.statuses.map(\.id.description) == ["4ET3-T8AG", "9T80-Q2W6", "K5NX-CAZ8"])
        #expect(ledger.entries.map(\.key) == ["vt_tag=004513", "vt_tag=004513|#2", "vt_tag=004513|#3"])
        #expect(Set(ledger.statuses.map(\.id)).count == 3)
        // The same three the night after are the same three ids, open.
        let next = FindingLedger(findings: twice, previous: ledger.entries, asOf: Self.day(2))
        #expect(next.statuses.map(\.id) == ledger.statuses.map(\.id))
        #expect(next.statuses.allSatisfy { $0.state == .open })
    }

    @Test func manyTaglessFindingsWithOneKeyAreNumberedInOnePass() {
        // A sighting file of tag-less rows, each holding the room "?": one key for every INVALID_VALUE. More of them
        // than the ledger makes entries for at once, so that the numbering goes on across its windows and chunks.
        let invalid = Discrepancy(
            code: .invalidValue, field: .room, value: "?", sources: [SourceLocation(file: "scans.csv", row: 2)],
            message: "The room \"?\" in scans.csv row 2 is not a room.")
        let count = FindingLedger.findingsPerWindow + 4_000
        let findings = Array(repeating: invalid, count: count) + [Self.missing(4513)] + [invalid]
        let started = ContinuousClock.now
        let ledger = FindingLedger(findings: findings, previous: nil, asOf: Self.day(1))
        // Counting up from 1 for each finding took minutes (800 million ids at 40,000); one pass takes well under a
        // second.
        #expect(ContinuousClock.now - started < .seconds(20))
        let base = "file=scans.csv|field=room|value=?"
        #expect(ledger.entries[0].key == base)
        #expect(ledger.entries[1].key == base + "|#2")
        #expect(
            ledger.entries[FindingLedger.findingsPerWindow].key == base + "|#\(FindingLedger.findingsPerWindow + 1)")
        #expect(ledger.entries[count - 1].key == base + "|#\(count)")
        #expect(ledger.entries[count].key == "vt_tag=004513")
        #expect(ledger.entries[count + 1].key == base + "|#\(count + 1)")
        #expect(ledger.statuses[count + 1].id == FindingID(code: .invalidValue, key: base + "|#\(count + 1)"))
        #expect(ledger.statuses.map(\.id) == ledger.entries.map(\.id))
        #expect(Set(ledger.statuses.map(\.id)).count == count + 2)
    }

    // MARK: Counting

    @Test func acknowledgedFindingsAreNotCounted() {
        let acknowledgement = Self.acknowledgement(of: Self.missing(4513))
        var reconciliation = Reconciliation(
            assets: [], discrepancies: Self.night1Findings, inputs: [], asOf: Self.day(1))
        #expect(reconciliation.count(Severity.error) == 2)
        #expect(reconciliation.count(Severity.warning) == 1)
        reconciliation.ledger = FindingLedger(
            findings: Self.night1Findings, previous: nil, acknowledgements: [acknowledgement.id: acknowledgement],
            asOf: Self.day(1))
        #expect(reconciliation.count(Severity.error) == 1)
        #expect(reconciliation.count(Severity.warning) == 1)
        #expect(reconciliation.acknowledgedCount == 1)
        #expect(reconciliation.statuses.map(\.state) == [.acknowledged, .new, .new])
    }
}
