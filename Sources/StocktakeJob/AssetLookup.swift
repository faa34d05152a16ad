import Foundation
import StocktakeCore

/// The clerk's quick question: which asset is this, and what does this person hold? Answered from each account's
/// latest `cleaned.csv` in the state folder, without running anything.
///
/// An ID is read in every way it normalizes validly (VT tag, CNS number, serial number, MAC address, with the
/// account's digit counts) and each reading is compared with its column's canonical text, so `001234` finds a tag
/// and a serial alike. Tables are streamed; only matching rows are kept.
public struct AssetLookup: Sendable {
    /// What is looked for.
    public enum Query: Sendable, Equatable {
        /// A VT tag, CNS number, serial number or MAC address, in any accepted form.
        case identifier(String)
        /// Everything a person holds: the `custodian` column equals this text, trimmed and ignoring case.
        case custodian(String)
    }

    /// The folder of account folders (`Jobs`), read for each account's tag and CNS digit counts.
    public var jobs: String
    /// The state folder (`state`), holding each account's `latest` run.
    public var state: String

    /// Digit counts used for an account that has a run but no folder under `jobs` any more.
    static let defaultDigits = (tag: 6, cns: 6)
    /// Columns a table must have to be looked up.
    static let requiredColumns: [CanonicalField] = [.vtTag, .cnsNumber, .serialNumber, .macAddress, .custodian]

    public init(jobs: String, state: String) {
        self.jobs = jobs
        self.state = state
    }

    /// Looks `query` up in `account`'s latest run, or, when `account` is `nil`, in every account that has a latest
    /// run, in name order. Over every account, an account that cannot be read is listed in `skipped` and the others
    /// are still searched; a named account that cannot be read throws.
    public func search(_ query: Query, account: String? = nil) throws(AssetLookupError) -> AssetLookupResult {
        if let account {
            guard let name = AccountName(account) else {
                throw .invalidAccountName(
                    name: account, problem: AccountName.problem(with: account) ?? "is not allowed")
            }
            guard let run = AccountState(root: state, account: name).latest else {
                throw .noRun(account: account, state: state)
            }
            let matches = try search(query, account: name, run: run)
            return AssetLookupResult(matches: matches, searched: [account])
        }
        let accounts = accountsWithRuns()
        guard !accounts.isEmpty else { throw .noRuns(state: state) }
        var result = AssetLookupResult()
        for (name, run) in accounts {
            do {
                result.matches += try search(query, account: name, run: run)
                result.searched.append(name.text)
            } catch {
                result.skipped.append(error)
            }
        }
        return result
    }

    /// The accounts with a latest run, in name order: every valid folder name under `jobs` or `state`.
    public func accountsWithRuns() -> [(account: AccountName, run: RunFolder)] {
        let names = Set(Self.folderNames(in: jobs) + Self.folderNames(in: state)).compactMap(AccountName.init)
        return names.sorted().compactMap { name in
            AccountState(root: state, account: name).latest.map { (name, $0) }
        }
    }

    /// The canonical text of each identifier `id` can be read as, with the given digit counts; an ID that reads as
    /// nothing (blank, a placeholder) has none.
    public static func interpretations(of id: String, tagDigits: Int, cnsDigits: Int) -> [CanonicalField: String] {
        var readings: [CanonicalField: String] = [:]
        readings[.vtTag] = VTTag.normalize(id, digits: tagDigits).value?.description
        readings[.cnsNumber] = CNSNumber.normalize(id, digits: cnsDigits).value?.description
        readings[.serialNumber] = SerialNumber.normalize(id).value?.text
        readings[.macAddress] = MACAddress.normalize(id).value?.description
        return readings
    }

    /// The rows of the cleaned table at `path` that match `query`, in file order, labelled with `account`.
    public static func matches(
        _ query: Query, inCleanedTable path: String, account: String, tagDigits: Int, cnsDigits: Int
    ) throws(AssetLookupError) -> [AssetMatch] {
        let readings: [CanonicalField: String]
        switch query {
        case .identifier(let id):
            readings = interpretations(of: id, tagDigits: tagDigits, cnsDigits: cnsDigits)
        case .custodian(let custodian):
            readings = [.custodian: custodian]
        }
        var matches: [AssetMatch] = []
        do {
            var reader = try CSVReader(path: path, delimiter: .comma)
            var columns: [String: Int]?
            var matcher = RowMatcher(readings: [:], columns: [:])
            try reader.forEachRecord { record in
                guard let known = columns else {
                    let header = try header(record, account: account, path: path)
                    matcher = RowMatcher(readings: readings, columns: header)
                    columns = header
                    return
                }
                let matchedBy = matcher.fields(matching: record)
                if !matchedBy.isEmpty {
                    matches.append(match(record, columns: known, account: account, matchedBy: matchedBy))
                }
            }
            if columns == nil {
                throw AssetLookupError.missingColumn(account: account, path: path, column: requiredColumns[0].rawValue)
            }
        } catch let error as CSVError {
            throw .unreadableTable(account: account, error: error)
        } catch let error as AssetLookupError {
            throw error
        } catch {
            throw .unreadableTable(account: account, error: .unreadable(file: path, reason: "\(error)"))
        }
        return matches
    }

    // MARK: Helpers

    private func search(_ query: Query, account: AccountName, run: RunFolder) throws(AssetLookupError)
        -> [AssetMatch]
    {
        let digits = try self.digits(of: account)
        let matches = try Self.matches(
            query, inCleanedTable: run.path(of: "cleaned.csv"), account: account.text, tagDigits: digits.tag,
            cnsDigits: digits.cns)
        guard case .identifier(let id) = query else { return matches }
        let readings = Self.interpretations(of: id, tagDigits: digits.tag, cnsDigits: digits.cns)
        return try Self.attachFindings(
            to: matches, readings: readings, table: run.path(of: "discrepancies.csv"), account: account.text)
    }

    /// The account's digit counts from its `account.json`, or the defaults when it has no folder under `jobs`.
    private func digits(of account: AccountName) throws(AssetLookupError) -> (tag: Int, cns: Int) {
        let folder = (jobs as NSString).appendingPathComponent(account.text)
        guard FileManager.default.fileExists(atPath: folder) else { return Self.defaultDigits }
        do {
            let config = try AccountConfig.load(folder: folder)
            return (config.tagDigits, config.cnsDigits)
        } catch {
            throw .configuration(error)
        }
    }

    /// The names of the folders in `folder` (none when it cannot be listed).
    private static func folderNames(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { name in
            var isFolder: ObjCBool = false
            let path = (folder as NSString).appendingPathComponent(name)
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
        }
    }

    /// The column index of each header name; throws when a column the lookup needs is missing.
    private static func header(_ record: borrowing CSVRecord, account: String, path: String) throws(AssetLookupError)
        -> [String: Int]
    {
        var columns: [String: Int] = [:]
        for index in 0..<record.count where columns[record.string(at: index)] == nil {
            columns[record.string(at: index)] = index
        }
        if let missing = requiredColumns.first(where: { columns[$0.rawValue] == nil }) {
            throw .missingColumn(account: account, path: path, column: missing.rawValue)
        }
        return columns
    }

    /// Copies a matching row out of the reader's buffers.
    private static func match(
        _ record: borrowing CSVRecord, columns: [String: Int], account: String, matchedBy: [CanonicalField]
    ) -> AssetMatch {
        func cell(_ name: String) -> String? {
            guard let index = columns[name], index < record.count else { return nil }
            return record.string(at: index)
        }
        var values: [CanonicalField: String] = [:]
        for field in CanonicalField.allCases {
            values[field] = cell(field.rawValue)
        }
        return AssetMatch(
            account: account, matchedBy: matchedBy, line: record.line, values: values, status: cell("status") ?? "",
            sources: cell("sources") ?? "")
    }
}

/// Decides on the bytes of a row whether it matches, without building strings for rows that do not.
private struct RowMatcher {
    /// One reading of the looked-up text: the column it is compared with and its canonical bytes.
    struct Reading {
        var field: CanonicalField
        var column: Int
        var bytes: [UInt8]
    }

    /// The readings whose column the table has, in column order.
    let readings: [Reading]

    /// Prepares `readings` (canonical text by field; a `custodian` reading is compared trimmed and ignoring case)
    /// for a table whose header gives `columns`.
    init(readings: [CanonicalField: String], columns: [String: Int]) {
        self.readings = CanonicalField.allCases.compactMap { field in
            guard let text = readings[field], let column = columns[field.rawValue] else { return nil }
            return Reading(field: field, column: column, bytes: Array(text.utf8))
        }
    }

    /// The fields of `record` that match, in column order; empty when the row does not match.
    func fields(matching record: borrowing CSVRecord) -> [CanonicalField] {
        var fields: [CanonicalField] = []
        for reading in readings where reading.column < record.count {
            let cell = record[reading.column]
            let matches =
                reading.field == .custodian
                ? reading.bytes.withUnsafeBufferPointer { Self.sameIgnoringCase(cell, $0) }
                : cell.elementsEqual(reading.bytes)
            if matches { fields.append(reading.field) }
        }
        return fields
    }

    /// Whether two cells hold the same text once trimmed, ignoring case (ASCII on the bytes; other letters through
    /// `String` when either side has them).
    static func sameIgnoringCase(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        let left = ByteTrim.trimmed(left)
        let right = ByteTrim.trimmed(right)
        guard !left.isEmpty, !right.isEmpty else { return false }
        if left.count == right.count && zip(left, right).allSatisfy({ folded($0) == folded($1) }) { return true }
        guard left.contains(where: { $0 >= 0x80 }) || right.contains(where: { $0 >= 0x80 }) else { return false }
        return String(decoding: left, as: UTF8.self).lowercased() == String(decoding: right, as: UTF8.self).lowercased()
    }

    /// The byte with ASCII upper-case letters made lower-case.
    private static func folded(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
