import Foundation
import StocktakeCore
import StocktakeSync

/// `stocktake check`: whether tonight's run of each account would work, tried now, one line per thing it needs.
///
/// For each account: its configuration, its secrets files (permissions included), its buildings table, every sheet
/// (local files read, remote ones pulled with the account's own credentials, each checked for a usable header),
/// and its column mapping against the headers found. Nothing is written or pushed.
public enum AccountCheck {
    /// How remote sheets are retried during a check: once more after a short wait, so a check stays quick.
    public static let retry: RetryPolicy = {
        var policy = RetryPolicy()
        policy.maximumAttempts = 2
        policy.maximumDelaySeconds = 2
        return policy
    }()

    /// Checks every account folder under `jobs` (or only the named `accounts`), in name order.
    public static func check(jobs: String, accounts: [String] = []) -> [CheckResult] {
        var options = NightlyRunOptions()
        options.jobs = jobs
        options.accounts = accounts
        return NightlyRun.accounts(options).flatMap { name in
            guard let problem = AccountName.problem(with: name) else {
                return check(folder: (jobs as NSString).appendingPathComponent(name))
            }
            return [
                CheckResult(
                    account: name, item: "account.json", status: .configuration,
                    detail: "the folder name \(problem). Rename the folder under \(jobs).")
            ]
        }
    }

    /// Checks the account in `folder` (`Jobs/<account>`).
    public static func check(folder: String) -> [CheckResult] {
        var run = Run(account: (folder as NSString).lastPathComponent)
        let reader: ConfigurationReader
        do throws(ConfigurationProblem) {
            reader = try ConfigurationReader(folder: folder)
        } catch {
            run.fail("account.json", .configuration, sentence(error))
            return run.results
        }
        var reading = reader
        let loaded = reading.read()
        for problem in reading.problems {
            run.fail(problem.key.isEmpty ? "account.json" : problem.key, .configuration, sentence(problem))
        }
        guard var config = loaded else { return run.results }
        if reading.problems.isEmpty { run.pass("account.json", "valid") }
        config.connection.retry = retry
        checkSecrets(config, &run)
        if let buildings = config.buildings {
            do throws(StocktakeError) {
                let table = try BuildingTableFile.load(path: buildings)
                run.pass("buildings", counted(table.buildings.count, "building"))
            } catch {
                run.fail("buildings", .configuration, error.description)
            }
        }
        let sheets = locations(config, reading)
        let remote = sheets.compactMap { try? SheetLocation($0.location, provider: $0.provider) }.filter { !$0.isLocal }
        var factory: Result<ProviderFactory, SyncError>?
        if !remote.isEmpty {
            do throws(SyncError) {
                factory = .success(
                    try config.connection.factory(account: run.account, locations: remote, reportTo: nil))
            } catch {
                factory = .failure(error)
            }
        }
        var headers: Set<String> = []
        var everySheetRead = true
        for sheet in sheets {
            if let found = checkSheet(sheet, config: config, factory: factory, &run) {
                headers.formUnion(found)
            } else {
                everySheetRead = false
            }
        }
        // A column can only be called missing once every sheet has been read.
        if everySheetRead && !config.columns.isEmpty {
            let missing = config.columns.keys.sorted().filter { !headers.contains(ColumnMapping.key($0)) }
            for header in missing {
                run.fail(
                    "columns.\(header)", .configuration,
                    "column \"\(header)\" is in the mapping but in no sheet. "
                        + "Check its spelling against the sheets' headers, or remove it.")
            }
            if missing.isEmpty {
                run.pass("columns", "every mapped column is in a sheet (\(counted(config.columns.count, "column")))")
            }
        }
        return run.results
    }

    /// The exit status of a check: 78 when a configuration, secrets file or mapping must be fixed, else 69 when a
    /// server could not be reached, else 0.
    public static func exitStatus(_ results: [CheckResult]) -> ExitStatus {
        if results.contains(where: { $0.status == .configuration }) { return .configuration }
        if results.contains(where: { !$0.ok }) { return .unavailable }
        return .success
    }

    /// The results as an aligned table (account, item, OK or FAIL, detail), with a heading and a closing count.
    public static func table(_ results: [CheckResult]) -> String {
        let rows =
            [["ACCOUNT", "ITEM", "RESULT", "DETAIL"]]
            + results.map { [$0.account, $0.item, $0.ok ? "OK" : "FAIL", $0.detail] }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            (0..<3).map { row[$0].padding(toLength: widths[$0] + 2, withPad: " ", startingAt: 0) }.joined()
                + row[3]
        }
        let accounts = Set(results.map(\.account)).count
        let failed = results.filter { !$0.ok }.count
        lines.append(
            "\(counted(accounts, "account")), \(counted(results.count, "check")): "
                + "\(results.count - failed) OK, \(failed) FAIL.")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Parts

    /// One sheet the account reads: its item name, where it is, and the role it plays.
    struct Sheet {
        var item: String
        var location: String
        var provider: String?
        var role: SourceRole
        /// The sheets read when the location is a workbook.
        var sheets = SheetSelection.first
    }

    /// The results of one account's check as they are found.
    struct Run {
        let account: String
        var results: [CheckResult] = []

        mutating func pass(_ item: String, _ detail: String) {
            results.append(CheckResult(account: account, item: item, status: .success, detail: detail))
        }

        mutating func fail(_ item: String, _ status: ExitStatus, _ detail: String) {
            results.append(CheckResult(account: account, item: item, status: status, detail: detail))
        }
    }

    /// A configuration problem as a sentence without the account's name, which the table shows in its own column.
    private static func sentence(_ problem: ConfigurationProblem) -> String {
        let clause = problem.problem.hasSuffix(".") ? String(problem.problem.dropLast()) : problem.problem
        return "\(clause). \(problem.fix)"
    }

    private static func checkSecrets(_ config: AccountConfig, _ run: inout Run) {
        let files = [("auth.tokenFile", config.connection.tokenFile), ("auth.oauthFile", config.connection.oauthFile)]
        for case (let item, let path?) in files {
            do throws(SyncError) {
                _ = try SecretsFile.read(path, account: run.account)
                run.pass(item, "\(path) is readable by its owner only")
            } catch {
                run.fail(item, .configuration, error.description)
            }
        }
    }

    /// The sheets of the account, each named as in `account.json`; entries already reported as problems are left
    /// out (the reader drops them from the configuration in order, so the others keep their own index).
    private static func locations(_ config: AccountConfig, _ reader: ConfigurationReader) -> [Sheet] {
        var sheets = [
            Sheet(
                item: "central", location: config.central.location, provider: config.central.provider, role: .central,
                sheets: config.central.sheet.map(SheetSelection.named) ?? .first)
        ]
        let failed = Set(reader.problems.map(\.key))
        for (key, kept, role) in [
            ("sightings", config.sightings, SourceRole.sighting), ("registers", config.registers, .register),
        ] {
            let count = (reader.object[key] as? [Any])?.count ?? 0
            let items = (0..<count).map { "\(key)[\($0)]" }.filter { !failed.contains($0) }
            for (item, entry) in zip(items, kept) {
                sheets.append(
                    Sheet(item: item, location: entry.location, provider: nil, role: role, sheets: entry.sheets))
            }
        }
        return sheets
    }

    /// Reads or pulls one sheet and checks it can play its role; returns the keys of its headers (even when the
    /// sheet cannot play its role), or `nil` when it could not be read.
    private static func checkSheet(
        _ sheet: Sheet, config: AccountConfig, factory: Result<ProviderFactory, SyncError>?, _ run: inout Run
    ) -> Set<String>? {
        var reader = SourceReader(
            mapping: ColumnMapping.builtIn.adding(config.columns), tagDigits: config.tagDigits,
            cnsDigits: config.cnsDigits)
        reader.keepsRecords = false
        reader.issueLimit = 0
        reader.limits.maxFieldBytes = config.maxFieldBytes
        reader.limits.maxRows = config.maxRows
        let location: SheetLocation
        do throws(HTTPError) {
            location = try SheetLocation(sheet.location, provider: sheet.provider)
        } catch {
            run.fail(sheet.item, .configuration, "\(sheet.location) cannot be used: \(error)")
            return nil
        }
        do throws(StocktakeError) {
            var sources: [SourceData] = []
            let detail: String
            switch location {
            case .file(let path):
                // A link leading outside the account's roots is refused here as tonight's run refuses it: unread.
                try config.roots.check(source: path)
                let files = try expand(SourceEntry(path, sheets: sheet.sheets), role: sheet.role)
                sources = try files.map { file throws(StocktakeError) in try reader.read(file) }
                let rows = counted(sources.reduce(0) { $0 + $1.rowCount }, "row")
                detail = isDirectory(path) ? "\(path): \(counted(files.count, "sheet")), \(rows)" : "\(path): \(rows)"
            default:
                guard case .success(let factory) = factory else {
                    if case .failure(let error) = factory { run.fail(sheet.item, status(of: error), error.description) }
                    return nil
                }
                let pulled: PulledSheet
                do throws(SyncError) {
                    pulled = try factory.provider(for: location).pull()
                } catch {
                    run.fail(sheet.item, status(of: error), error.description)
                    return nil
                }
                var names: [String?] = [nil]
                if case .named(let name) = sheet.sheets { names = [name] }
                if case .all = sheet.sheets, SourceFormat.of(prefix: pulled.bytes.prefix(8)) == .workbook {
                    names = try WorkbookSource.visibleSheets(of: pulled.bytes, name: pulled.fileName)
                }
                sources = try names.map { name throws(StocktakeError) in
                    let file = SourceFile(path: pulled.location, role: sheet.role, sheet: name)
                    return try reader.read(file, bytes: pulled.bytes, name: pulled.fileName)
                }
                detail =
                    "\(location): pulled \(counted(pulled.bytes.count, "byte")), "
                    + counted(sources.reduce(0) { $0 + $1.rowCount }, "row")
            }
            let headers = Set(sources.flatMap { $0.layout.header.map(ColumnMapping.key) })
            do throws(StocktakeError) {
                for source in sources { try usable(source) }
                run.pass(sheet.item, detail)
            } catch {
                // Read but unusable: its headers still count for the mapping check.
                run.fail(sheet.item, .configuration, error.description)
            }
            return headers
        } catch {
            run.fail(sheet.item, .configuration, error.description)
            return nil
        }
    }

    /// What a failed pull means tonight: a server that cannot be reached now (69), or a setting to fix (78).
    public static func status(of error: SyncError) -> ExitStatus {
        switch error {
        case .unreachable, .unavailable, .badResponse: .unavailable
        default: .configuration
        }
    }

    /// The sources an entry names: a file (or the sheets asked for of a workbook), or the spreadsheets of a folder in
    /// name order.
    private static func expand(_ entry: SourceEntry, role: SourceRole) throws(StocktakeError) -> [SourceFile] {
        guard role != .central || !isDirectory(entry.location) else {
            throw .badData(path: entry.location, reason: "is a folder; give the central sheet's file.")
        }
        return try ReconcileJob.expand(entry, role: role)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// Whether a sheet can play its role tonight: a central sheet needs a header with a VT tag column, any other
    /// sheet with a header needs an identifier column.
    private static func usable(_ source: SourceData) throws(StocktakeError) {
        let path = source.file.path
        let columns = source.layout.header.map { "\"\($0)\"" }.joined(separator: ", ")
        if source.file.role == .central {
            guard source.headerLine > 0 else {
                throw .badData(path: path, reason: "the central sheet is empty. Export it again with its header row.")
            }
            guard source.layout.maps(.vtTag) else {
                throw .badData(
                    path: path,
                    reason: "the central sheet has no VT tag column (its columns are \(columns)). "
                        + "Map the tag column in \"columns\", for example {\"Asset #\": \"vt_tag\"}.")
            }
        } else if source.headerLine > 0 && !source.layout.hasIdentifier {
            throw .badData(
                path: path,
                reason: "no column holds a VT tag, CNS number, serial number or MAC address (its columns are "
                    + "\(columns)). Map one in \"columns\", for example {\"Asset #\": \"vt_tag\"}.")
        }
    }
}
