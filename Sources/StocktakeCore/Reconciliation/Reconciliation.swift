/// The outcome of reconciling one account: the cleaned assets, the discrepancies, and what was read.
public struct Reconciliation: Sendable {
    /// What was read from one input file.
    public struct Input: Sendable, Hashable {
        public var file: SourceFile
        /// Data rows read, blank lines and the header not counted.
        public var rows: Int
        public var delimiter: Delimiter
        public var unmapped: [String]
        public var notes: [String]
    }

    /// One row per tagged asset (central assets and unrecorded ones), sorted by VT tag. The scanned tag of a
    /// POSSIBLE_TYPO pair is not an asset: its rows are named in that finding, and its central asset is `typo`.
    public var assets: [CleanedAsset]
    /// Every finding, most severe first.
    public var discrepancies: [Discrepancy]
    /// The input files in reconciliation order (central, sightings, registers).
    public var inputs: [Input]
    /// The run date staleness was measured against.
    public var asOf: InventoryDate
    /// The findings held against the last run's ledger and the acknowledgements (`ReconcileJob.reconcile` does it;
    /// empty until then).
    public var ledger = FindingLedger()
    /// The buildings table the sources were read with (`--buildings`, `"buildings"`), which names each building
    /// code in `cleaned.csv` and the billing totals; `nil` without one.
    public var buildings: BuildingTable?

    /// Where each finding stands, in the order of `discrepancies`: from `ledger`, or, before the ledger was applied,
    /// as on an account's first run (every finding new).
    public var statuses: [FindingStatus] {
        if ledger.statuses.count == discrepancies.count { return ledger.statuses }
        return FindingLedger(findings: discrepancies, previous: nil, asOf: asOf).statuses
    }

    /// How many findings are acknowledged (and so counted neither as errors nor as warnings).
    public var acknowledgedCount: Int {
        isAcknowledged.count(where: { $0 })
    }

    /// For each finding, whether it is acknowledged.
    private var isAcknowledged: [Bool] {
        guard ledger.statuses.count == discrepancies.count else {
            return Array(repeating: false, count: discrepancies.count)
        }
        return ledger.statuses.map { $0.state == .acknowledged }
    }

    /// How many discrepancies carry each code.
    public var countsByCode: [DiscrepancyCode: Int] {
        // Index loops read one field in place; iterating elements would copy every discrepancy.
        var counts: [DiscrepancyCode: Int] = [:]
        for index in discrepancies.indices { counts[discrepancies[index].code, default: 0] += 1 }
        return counts
    }

    /// How many discrepancies have `severity`, acknowledged ones left out.
    public func count(_ severity: Severity) -> Int {
        let acknowledged = isAcknowledged
        var count = 0
        for index in discrepancies.indices
        where discrepancies[index].code.severity == severity && !acknowledged[index] {
            count += 1
        }
        return count
    }

    /// How many cleaned assets have `status` (a pass over all of them: for several statuses, `countsByStatus`).
    public func count(_ status: AssetStatus) -> Int {
        countsByStatus[status] ?? 0
    }

    /// How many cleaned assets have each status (a status no asset has is left out), in one pass over the assets:
    /// `run.json` gives every count, and a pass per status read a million assets four times more.
    public var countsByStatus: [AssetStatus: Int] {
        var ok = 0
        var missing = 0
        var unrecorded = 0
        var conflict = 0
        var typo = 0
        for index in assets.indices {
            switch assets[index].status {
            case .ok: ok += 1
            case .missing: missing += 1
            case .unrecorded: unrecorded += 1
            case .conflict: conflict += 1
            case .typo: typo += 1
            }
        }
        let counts: [(AssetStatus, Int)] = [
            (.ok, ok), (.missing, missing), (.unrecorded, unrecorded), (.conflict, conflict), (.typo, typo),
        ]
        return Dictionary(uniqueKeysWithValues: counts.filter { $0.1 > 0 })
    }
}
