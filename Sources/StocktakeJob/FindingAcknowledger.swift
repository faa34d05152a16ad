import Foundation
import StocktakeCore
import StocktakeSync

/// `stocktake ack`: records that findings of an account's latest run are known and fine, in the account's
/// `acknowledged.csv`, with the evidence each rests on tonight (a change of it reopens the finding).
public struct FindingAcknowledger: Sendable {
    /// The folder of account folders (`Jobs`).
    public var jobs: String
    /// The state folder (`state`), holding each account's `latest` run and its ledger.
    public var state: String

    public init(jobs: String, state: String) {
        self.jobs = jobs
        self.state = state
    }

    /// Acknowledges the findings `ids` of `account`'s latest run with `note`, until `until` (no end when `nil`), by
    /// `by`, on `today`. Nothing is written unless every id is a finding that stands in the latest run.
    /// Returns the acknowledgements with the ledger entries they cover, in the order given.
    @discardableResult
    public func acknowledge(
        _ ids: [String], account: String, note: String, until: InventoryDate?, by: String, today: InventoryDate
    ) throws(AcknowledgementError) -> [(Acknowledgement, LedgerEntry)] {
        guard let name = AccountName(account) else {
            throw .invalidAccountName(name: account, problem: AccountName.problem(with: account) ?? "is not allowed")
        }
        let config: AccountConfig
        do throws(ConfigurationProblem) {
            if let problem = JobsFolder.problem(account: account, in: jobs) { throw problem }
            config = try AccountConfig.load(folder: (jobs as NSString).appendingPathComponent(account))
        } catch {
            throw .configuration(error)
        }
        let sheet = config.acknowledged
        if let location = try? SheetLocation(sheet), !location.isLocal {
            throw .remoteSheet(account: account, location: location.description)
        }
        guard let run = AccountState(root: state, account: name).latest else {
            throw .noRun(account: account, state: state)
        }
        let entries: [LedgerEntry]
        do {
            guard let read = try LedgerFile.read(run.path(of: "ledger.csv")) else {
                throw AcknowledgementError.noLedger(account: account, run: run.id)
            }
            entries = read
        } catch let error as AcknowledgementError {
            throw error
        } catch let error as StocktakeError {
            throw .unreadableLedger(account: account, error: error)
        } catch {
            throw .unreadableLedger(account: account, error: .unreadableInput(path: run.path, reason: "\(error)"))
        }
        var byID: [FindingID: LedgerEntry] = [:]
        for entry in entries { byID[entry.id] = entry }
        let standing = entries.filter { $0.state.isCurrent }.map(\.id)
        var acknowledged: [(Acknowledgement, LedgerEntry)] = []
        for text in ids {
            guard let id = FindingID(text.trimmingCharacters(in: .whitespaces)) else { throw .notAnID(text: text) }
            guard let entry = byID[id], entry.state.isCurrent else {
                let closest = standing.sorted { ($0.distance(to: id), $0) < ($1.distance(to: id), $1) }.prefix(3)
                throw .notOpen(
                    account: account, id: id, run: run.id, resolvedOn: byID[id]?.resolvedOn, closest: Array(closest))
            }
            let acknowledgement = Acknowledgement(
                id: id, note: note, until: until, by: by, acknowledgedOn: today, evidence: entry.evidence)
            acknowledged.append((acknowledgement, entry))
        }
        do {
            try AcknowledgementFile.add(acknowledged.map(\.0), to: sheet)
        } catch {
            throw .cannotWrite(account: account, error: error)
        }
        return acknowledged
    }
}
