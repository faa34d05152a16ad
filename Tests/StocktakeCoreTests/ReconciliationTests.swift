import Testing

@testable import StocktakeCore

@Suite("Reconciliation: counts")
struct ReconciliationTests {
    static func asset(_ tag: UInt64, _ status: AssetStatus) -> CleanedAsset {
        var values = AssetValues()
        values.vtTag = VTTag(number: tag, digits: 6)
        return CleanedAsset(values: values, status: status, sources: ["central.csv"])
    }

    static func finding(_ code: DiscrepancyCode) -> Discrepancy {
        Discrepancy(code: code, sources: [], message: "")
    }

    static let reconciliation = Reconciliation(
        assets: [
            asset(1, .ok), asset(2, .missing), asset(3, .missing), asset(4, .conflict), asset(5, .ok),
            asset(6, .ok),
        ],
        discrepancies: [
            finding(.missing), finding(.missing), finding(.sharedMAC), finding(.fieldConflict),
            finding(.fieldConflict), finding(.fieldConflict), finding(.duplicateRow),
        ],
        inputs: [], asOf: InventoryDate(year: 2026, month: 11, day: 20)!)

    @Test func countsByCode() {
        #expect(Self.reconciliation.countsByCode == [.missing: 2, .sharedMAC: 1, .fieldConflict: 3, .duplicateRow: 1])
    }

    @Test func countsBySeverity() {
        #expect(Self.reconciliation.count(Severity.error) == 3)
        #expect(Self.reconciliation.count(Severity.warning) == 3)
        #expect(Self.reconciliation.count(Severity.info) == 1)
    }

    @Test func countsByStatus() {
        #expect(Self.reconciliation.count(AssetStatus.ok) == 3)
        #expect(Self.reconciliation.count(AssetStatus.missing) == 2)
        #expect(Self.reconciliation.count(AssetStatus.unrecorded) == 0)
        #expect(Self.reconciliation.count(AssetStatus.conflict) == 1)
        #expect(Self.reconciliation.countsByStatus == [.ok: 3, .missing: 2, .conflict: 1])
    }

    @Test func countsEveryStatusInOnePass() {
        let statuses: [AssetStatus] = [.typo, .ok, .unrecorded, .missing, .unrecorded, .conflict, .typo, .typo]
        let reconciliation = Reconciliation(
            assets: statuses.enumerated().map { Self.asset(UInt64($0.offset + 1), $0.element) }, discrepancies: [],
            inputs: [], asOf: InventoryDate(year: 2026, month: 11, day: 20)!)
        #expect(reconciliation.countsByStatus == [.ok: 1, .missing: 1, .unrecorded: 2, .conflict: 1, .typo: 3])
        #expect(reconciliation.count(AssetStatus.typo) == 3)
    }

    @Test func anEmptyReconciliationCountsNothing() {
        let empty = Reconciliation(assets: [], discrepancies: [], inputs: [], asOf: Self.reconciliation.asOf)
        #expect(empty.countsByCode.isEmpty)
        #expect(empty.count(Severity.error) == 0)
        #expect(empty.count(AssetStatus.ok) == 0)
    }

    @Test func beforeTheLedgerEveryFindingIsNewAndNoneIsAcknowledged() {
        let reconciliation = Self.reconciliation
        #expect(reconciliation.statuses.count == 7)
        #expect(reconciliation.statuses.allSatisfy { $0.state == .new && $0.firstSeen == reconciliation.asOf })
        #expect(
            reconciliation.statuses.map(\.id)
                == FindingLedger(
                    findings: reconciliation.discrepancies, previous: nil, asOf: reconciliation.asOf
                ).statuses.map(\.id))
        #expect(reconciliation.acknowledgedCount == 0)
    }

    @Test func acknowledgedFindingsCountNeitherAsErrorsNorAsWarnings() throws {
        var reconciliation = Self.reconciliation
        let findings = reconciliation.discrepancies
        func acknowledgement(_ index: Int) -> Acknowledgement {
            Acknowledgement(
                id: FindingLedger(findings: findings, previous: nil, asOf: reconciliation.asOf).statuses[index].id,
                note: "known")
        }
        // The shared MAC (an error) and one field conflict (a warning).
        let acknowledged = [acknowledgement(2), acknowledgement(4)]
        reconciliation.ledger = FindingLedger(
            findings: findings, previous: nil,
            acknowledgements: Dictionary(uniqueKeysWithValues: acknowledged.map { ($0.id, $0) }),
            asOf: reconciliation.asOf)
        #expect(reconciliation.acknowledgedCount == 2)
        #expect(reconciliation.count(Severity.error) == 2)
        #expect(reconciliation.count(Severity.warning) == 2)
        #expect(reconciliation.count(Severity.info) == 1)
        #expect(reconciliation.statuses.map(\.state) == [.new, .new, .acknowledged, .new, .acknowledged, .new, .new])
        // The codes are still all counted by code.
        #expect(reconciliation.countsByCode == [.missing: 2, .sharedMAC: 1, .fieldConflict: 3, .duplicateRow: 1])
    }

    @Test func aLedgerOfOtherFindingsIsNotUsed() {
        var reconciliation = Self.reconciliation
        let other = Discrepancy(code: .sharedMAC, sources: [], message: "")
        let acknowledgement = Acknowledgement(id: FindingID(code: .sharedMAC, key: ""), note: "")
        reconciliation.ledger = FindingLedger(
            findings: [other], previous: nil, acknowledgements: [acknowledgement.id: acknowledgement],
            asOf: reconciliation.asOf)
        #expect(reconciliation.ledger.statuses.map(\.state) == [.acknowledged])
        #expect(reconciliation.acknowledgedCount == 0)
        #expect(reconciliation.count(Severity.error) == 3)
        #expect(reconciliation.statuses.count == 7)
        #expect(reconciliation.statuses.allSatisfy { $0.state == .new })
    }
}
