/// Tonight's findings held against the ledger of the run before and the acknowledgements: which are new, open or
/// acknowledged, which are gone (`resolved.csv`), and the ledger to keep for the next run.
///
/// Follows DOMAIN.md "Findings across nights". A finding keeps its `first_seen` while it stands from run to run. One
/// that was resolved and comes back is `new` again, its old dates kept in its note. An acknowledgement holds while
/// the finding's evidence is unchanged and its `until` date has not passed; after that the finding is `new` for one
/// run, saying why, and `open` after.
public struct FindingLedger: Sendable {
    /// One per finding, in the order of the findings.
    public private(set) var statuses: [FindingStatus] = []
    /// The findings of the last run that are gone tonight, in the last run's order.
    public private(set) var resolved: [LedgerEntry] = []
    /// The ledger to keep: tonight's findings, then those resolved within the last `keptDays`.
    public private(set) var entries: [LedgerEntry] = []
    /// A sentence for each acknowledgement that was left out or no longer matches anything.
    public var notes: [String] = []

    /// How long a resolved finding stays in the ledger, to be recognized when it comes back.
    public static let keptDays = 366

    /// An empty ledger, before any findings were held against it.
    public init() {}

    /// Holds `findings` (in their listed order) against `previous` (the last run's ledger; `nil` on an account's
    /// first run) and `acknowledgements`, on the run date `asOf`.
    public init(
        findings: [Discrepancy], previous: [LedgerEntry]?, acknowledgements: [FindingID: Acknowledgement] = [:],
        asOf: InventoryDate
    ) {
        var before: [FindingID: LedgerEntry] = [:]
        for entry in previous ?? [] { before[entry.id] = entry }
        var seen = Set<FindingID>()
        // The last number given to each code and key: thousands of findings with one key (tag-less rows holding
        // one invalid value) are numbered in one pass, not each by counting up past all the ones before it.
        var lastNumbers: [String: Int] = [:]
        statuses.reserveCapacity(findings.count)
        entries.reserveCapacity(findings.count)
        // What an entry takes from its finding alone (its key, its evidence, its values as text) is made on all
        // cores, a window of findings at a time so that a night of millions of findings does not hold its entries
        // twice; numbering the keys that repeat and holding each finding against the last run stay in order.
        for window in stride(from: 0, to: findings.count, by: Self.findingsPerWindow) {
            let count = min(Self.findingsPerWindow, findings.count - window)
            let made = Parallel.chunked(count, minimum: Self.findingsPerChunk) { range in
                range.map { Self.entry(for: findings[window + $0], asOf: asOf) }
            }
            for var entry in made.joined() {
                // Two findings of one night with one key (a row repeated twice in one file under one tag), or two
                // keys whose ids collide: the later one is numbered, in the findings' order.
                if seen.contains(entry.id) {
                    let baseKey = entry.key
                    // Every number up to the last one given to this key is taken already.
                    var number = lastNumbers[entry.code.rawValue + "|" + baseKey] ?? 1
                    repeat {
                        number += 1
                        entry.key = baseKey + "|#\(number)"
                        entry.id = FindingID(code: entry.code, key: entry.key)
                    } while seen.contains(entry.id)
                    lastNumbers[entry.code.rawValue + "|" + baseKey] = number
                }
                seen.insert(entry.id)
                Self.place(&entry, last: before[entry.id], acknowledgement: acknowledgements[entry.id], asOf: asOf)
                statuses.append(
                    FindingStatus(id: entry.id, firstSeen: entry.firstSeen, state: entry.state, note: entry.note))
                entries.append(entry)
            }
        }
        for entry in previous ?? [] where !seen.contains(entry.id) {
            var gone = entry
            if entry.state.isCurrent {
                gone.state = entry.pushed ? .fixedByPush : .resolved
                gone.resolvedOn = asOf
                gone.pushed = false
                resolved.append(gone)
            }
            guard let resolvedOn = gone.resolvedOn, asOf - resolvedOn <= Self.keptDays else { continue }
            entries.append(gone)
        }
        let unused = acknowledgements.keys.filter { !seen.contains($0) }.sorted()
        if !unused.isEmpty {
            let ids = unused.prefix(5).map(\.description).joined(separator: ", ")
            let one = unused.count == 1
            notes.append(
                "\(counted(unused.count, "acknowledgement")) \(one ? "matches" : "match") no finding tonight (\(ids)"
                    + (unused.count > 5 ? ", …" : "") + "); "
                    + (one ? "remove it once its finding is fixed." : "remove them once their findings are fixed."))
        }
    }

    /// The fewest findings worth a thread of their own: an account's hundred findings are made where they are held.
    static let findingsPerChunk = 1024

    /// The findings whose entries are made at once.
    static let findingsPerWindow = 1 << 16

    /// `finding`'s entry as a new finding seen first on `asOf`, keyed by its own key (before any numbering).
    private static func entry(for finding: Discrepancy, asOf: InventoryDate) -> LedgerEntry {
        let key = FindingKey.key(of: finding)
        return LedgerEntry(
            id: FindingID(code: finding.code, key: key), code: finding.code, key: key, firstSeen: asOf,
            lastSeen: asOf, state: .new, evidence: FindingKey.evidence(of: finding),
            vtTag: finding.vtTag?.description ?? "", cnsNumber: finding.cnsNumber?.description ?? "",
            serialNumber: finding.serialNumber?.description ?? "", macAddress: finding.macAddress?.description ?? "",
            field: finding.field?.rawValue ?? "", value: finding.value, expected: finding.expected)
    }

    /// Decides the state of a finding seen tonight from its entry in the last run's ledger and its acknowledgement.
    private static func place(
        _ entry: inout LedgerEntry, last: LedgerEntry?, acknowledgement: Acknowledgement?, asOf: InventoryDate
    ) {
        let stood = last.map { $0.state.isCurrent } ?? false
        if let last, stood {
            entry.firstSeen = last.firstSeen
            entry.state = .open
        } else if let last, let resolvedOn = last.resolvedOn {
            entry.note = "Reopened: first seen \(last.firstSeen), resolved on \(resolvedOn)."
        }
        guard let acknowledgement else { return }
        // A sheet kept by hand has no evidence column: the evidence of the first run the acknowledgement covered
        // stands in for it.
        let covered =
            !acknowledgement.evidence.isEmpty
            ? acknowledgement.evidence
            : (last.map(\.acknowledgedEvidence).flatMap { $0.isEmpty ? nil : $0 } ?? entry.evidence)
        let reason: String?
        if let until = acknowledgement.until, asOf > until {
            reason = "the acknowledgement ran until \(until)"
        } else if covered != entry.evidence {
            reason = "its evidence changed since it was acknowledged"
        } else {
            reason = nil
        }
        guard let reason else {
            entry.state = .acknowledged
            entry.acknowledgedEvidence = covered
            entry.note = acknowledgement.spoken.capitalizedFirst + "."
            return
        }
        // Reopened: new on the first run it is no longer covered, open after. The evidence it covered is kept, so
        // that a hand-kept acknowledgement (no evidence of its own) does not cover the changed evidence next run.
        entry.acknowledgedEvidence = covered
        let wasCovered = last?.state == .acknowledged
        entry.state = wasCovered || !stood ? .new : .open
        entry.note = "Reopened: \(reason) (\(acknowledgement.spoken))."
    }

    /// Marks the findings on the assets whose central rows a successful push changed or added (by tag number): if
    /// they are gone next run, the push fixed them (`fixed_by_push`).
    public mutating func markPushed(tagNumbers: Set<UInt64>) {
        guard !tagNumbers.isEmpty else { return }
        for index in entries.indices where entries[index].state.isCurrent {
            let entry = entries[index]
            let tags = [entry.vtTag] + (entry.code == .possibleTypo ? [entry.expected] : [])
            if tags.contains(where: { UInt64($0).map(tagNumbers.contains) ?? false }) { entries[index].pushed = true }
        }
    }
}
