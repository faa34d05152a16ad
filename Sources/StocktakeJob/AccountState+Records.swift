import Foundation
import StocktakeCore
import StocktakeSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an account's state tells between nights besides its runs: the central sheet of the last good run (derived
/// from `latest`), and a push in progress.
///
/// ```
/// STATE/<account>/push-journal.json       a push about to replace the central sheet, until it is settled
/// ```
extension AccountState {
    /// The record of a push in progress.
    public var pushJournalPath: String { path + "/push-journal.json" }

    /// The last good run's central sheet, or `nil` on a first night: the sheet `latest`'s run pulled (a run that
    /// was refused, failed or dry never becomes `latest`), counted as the reconciliation counts rows, dated by the
    /// day that run started (UTC). Derived, not recorded, so it can never disagree with the run it describes.
    public var centralBaseline: CentralBaseline? { centralBaseline(sheet: nil) }

    /// As `centralBaseline`, counting the rows of the worksheet `sheet` when the central sheet is a workbook (its
    /// first visible sheet when `nil`), as tonight's pull counts them.
    public func centralBaseline(sheet: String?) -> CentralBaseline? {
        guard let run = latest, let id = RunFolder.date(ofID: run.id) else { return nil }
        let pulled = run.path(of: "pulled")
        // The pulled sheet keeps its own extension (`central.tsv`), which tells its delimiter.
        guard
            let name = (try? FileManager.default.contentsOfDirectory(atPath: pulled))?.sorted().first(where: {
                ($0 as NSString).deletingPathExtension == "central"
            }),
            let bytes = FileManager.default.contents(atPath: pulled + "/" + name)
        else { return nil }
        let integrity = SheetIntegrity.check(Array(bytes), fileName: name, sheet: sheet)
        return CentralBaseline(rows: integrity.dataRows, date: id, runID: run.id)
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

    /// Removes the temporary files of `push-journal.json` and `pending-push.json` that runs killed while writing them
    /// left in the account's folder, and returns their names. Call it under the account's lock.
    @discardableResult
    public func removeStaleRecordPartials() -> [String] {
        [pushJournalPath, pendingPushPath].flatMap { AtomicFile.removeStalePartials(of: $0) }
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
