import Foundation
import StocktakeCore
import StocktakeSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The small records an account's state keeps between nights besides its runs: the central sheet of the last good
/// run, and a push in progress.
///
/// ```
/// STATE/<account>/central-baseline.json   rows and run date of the last good run's central sheet
/// STATE/<account>/push-journal.json       a push about to replace the central sheet, until it is settled
/// ```
extension AccountState {
    /// The record of the last good run's central sheet.
    public var baselinePath: String { path + "/central-baseline.json" }
    /// The record of a push in progress.
    public var pushJournalPath: String { path + "/push-journal.json" }

    /// The last good run's central sheet, or `nil` on a first night. An account whose state predates the record
    /// counts the rows of its latest run's pulled central sheet instead.
    public func centralBaseline(asOf: InventoryDate) -> CentralBaseline? {
        if let record: CentralBaseline = decoded(baselinePath) { return record }
        guard let run = latest,
            let bytes = FileManager.default.contents(atPath: run.path(of: "pulled/central.csv"))
        else { return nil }
        let integrity = SheetIntegrity.check(Array(bytes), fileName: "central.csv")
        let date = RunFolder.date(ofID: run.id) ?? asOf
        return CentralBaseline(rows: integrity.dataRows, date: date, runID: run.id)
    }

    /// Keeps `baseline` as the central sheet later nights are compared with.
    public func recordCentralBaseline(_ baseline: CentralBaseline) throws(AccountStateError) {
        try prepareFolder()
        try encode(baseline, to: baselinePath)
    }

    /// The push a run recorded and did not settle (it was stopped), or `nil`.
    public var pushJournal: PushIntent? { decoded(pushJournalPath) }

    /// Records a push about to be made; written atomically before the sheet is replaced.
    public func recordPushJournal(_ intent: PushIntent) throws(AccountStateError) {
        try prepareFolder()
        try encode(intent, to: pushJournalPath)
    }

    /// Forgets the push in progress; nothing happens when there is none.
    public func clearPushJournal() throws(AccountStateError) {
        guard unlink(pushJournalPath) == 0 || errno == ENOENT else {
            throw .cannotRemove(account: account, path: pushJournalPath, reason: AccountStateError.reason(for: errno))
        }
    }

    func encode(_ value: some Encodable, to file: String) throws(AccountStateError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let bytes: [UInt8]
        do {
            bytes = Array(try encoder.encode(value)) + [UInt8(ascii: "\n")]
        } catch {
            throw .cannotWrite(account: account, path: file, reason: "\(error)")
        }
        do {
            try AtomicFile.write(bytes, to: file)
        } catch {
            throw .cannotWrite(account: account, path: file, reason: AccountStateError.reason(of: error))
        }
    }

    /// The record in `file`, or `nil` when there is none or it cannot be understood (a broken record must not stop
    /// the run; the next good run writes a new one).
    func decoded<Value: Decodable>(_ file: String) -> Value? {
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(Value.self, from: data)
    }
}
