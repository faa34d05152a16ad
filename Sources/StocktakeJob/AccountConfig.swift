import Foundation
import StocktakeCore
import StocktakeSync

/// One company's account: `Jobs/<account>/account.json`, with paths relative to that folder.
///
/// Every key is checked when the file is loaded: unknown keys, wrong types and missing files are problems naming
/// the account, the key and the fix, so a bad account is skipped tonight and the others still run.
public struct AccountConfig: Sendable {
    /// Where one sheet comes from.
    public struct Source: Sendable, Hashable {
        /// `file`, `https`, `google-sheets` or `google-drive`; `nil` to tell from the address.
        public var provider: String?
        /// A path (resolved against the account folder) or an address.
        public var location: String
        /// The worksheet that is the sheet, when the location is a workbook whose first sheet is not; `nil` for the
        /// first visible sheet.
        public var sheet: String?

        public init(provider: String?, location: String, sheet: String? = nil) {
            self.provider = provider
            self.location = location
            self.sheet = sheet
        }
    }

    public var folder: String
    public var account: AccountName
    /// The company's name for people.
    public var name: String
    /// The zone the report states the run's time in (`timeZone`, an IANA name); UTC by default.
    public var timeZone = ReportTimeZone.utc
    public var central: Source
    public var sightings: [SourceEntry] = []
    public var registers: [SourceEntry] = []
    public var buildings: String?
    public var columns: [String: ColumnTarget] = [:]
    public var precedence: [CanonicalField: FieldPrecedence] = [:]
    public var tagDigits = 6
    public var cnsDigits = 6
    public var staleAfterDays = 365
    /// The largest share of the central sheet's rows a push may remove (0.2 = 20 %).
    public var maxShrink = 0.2
    /// The largest share of central assets that may be `MISSING` before a night is refused (0.5 = 50 %).
    public var maxMissingShare = 0.5
    /// Run folders kept in the state folder.
    public var keepRuns = 30
    /// The address space the account's process may use, in MB: a bigger need fails this account alone.
    public var maxMemoryMB = 4096
    /// The minutes the account's process may run before it is stopped and the account fails.
    public var maxMinutes = 60.0
    /// The group that may read the account's run folders and reports (`rules.reportGroup`); `nil` for the group of
    /// the state folder.
    public var reportGroup: String?
    /// The most bytes one cell of a source may hold (`rules.maxFieldBytes`).
    public var maxFieldBytes = ReadLimits.defaultMaxFieldBytes
    /// The most data rows one source, and all the account's sources together, may hold (`rules.maxRows`).
    public var maxRows = ReadLimits.defaultMaxRows
    /// The folders and files local sources must lie in once symbolic links are followed (`rules.allowedRoots`,
    /// resolved against the account folder); `nil` for the default (see `roots`).
    public var allowedRoots: [String]?

    /// What the account's local sources may be read from: `rules.allowedRoots`, or else the account folder and
    /// every local path its configuration names (the central sheet, the sightings, the registers, the buildings
    /// table, the acknowledgements) as named, so that a link put in place of one of them is not followed out.
    public var roots: AllowedRoots {
        if let allowedRoots { return AllowedRoots(allowedRoots) }
        var named = [(central.location, central.provider)] + (sightings + registers).map { ($0.location, nil) }
        if let buildings { named.append((buildings, "file")) }
        named.append((acknowledged, nil))
        return AllowedRoots(
            [folder],
            named: named.compactMap { location, provider in
                guard case .file(let path)? = try? SheetLocation(location, provider: provider) else { return nil }
                return path
            })
    }
    /// The order rows without a VT tag are joined by (the VT tag always comes first).
    public var identifierOrder: [CanonicalField] = [.serialNumber, .macAddress, .cnsNumber]
    public var connection = ConnectionSettings()
    /// Whether `cleaned.csv` is pushed back to the central sheet.
    public var pushCleaned = false
    /// What a push may change in the central sheet (`push.normalize`, `fill`, `overwrite`, `fields`,
    /// `addUnrecorded`).
    public var writeBack = WriteBackOptions()
    /// A folder URL the outputs are uploaded to.
    public var reportTo: String?
    /// The address where people open the account's state folder in a browser (`report.url`): the nightly mail then
    /// links each report (`runs/<run>/report.html` under it) instead of naming a path on the server.
    public var reportURL: String?
    /// The path or address of the sheet a clerk keeps the account's acknowledgements in (`"acknowledged"`); `nil`
    /// for `acknowledged.csv` in the account folder.
    public var acknowledgedSheet: String?
    /// The failures this account rehearses on every run (`"testFailureMode": ["push"]`), as `--simulate-failure`
    /// does for every account: one company can rehearse a bad night without touching the others.
    public var testFailureMode: [SimulatedFailure] = []

    /// The account's acknowledgements: `acknowledgedSheet`, or `acknowledged.csv` in the account folder, where
    /// `stocktake ack` writes.
    public var acknowledged: String { acknowledgedSheet ?? resolve("acknowledged.csv") }

    /// The keys `account.json` may hold, with the keys of its objects.
    public static let keys: [String: [String]] = [
        "name": [], "timeZone": [], "central": ["provider", "url", "sheet"], "sightings": [], "registers": [],
        "buildings": [],
        "columns": [],
        "precedence": [], "acknowledged": [],
        "rules": [
            "tagDigits", "cnsDigits", "staleAfterDays", "maxShrink", "maxMissingShare", "keepRuns", "identifierOrder",
            "maxMemoryMB", "maxMinutes", "reportGroup", "maxFieldBytes", "maxRows", "allowedRoots",
        ],
        "auth": ["tokenFile", "tokenVariable", "oauthFile", "caFile"],
        "limits": ["connectTimeoutSeconds", "timeoutSeconds", "deadlineSeconds", "maxDownloadMB"],
        "google": ["sheetsAPI", "driveAPI"],
        "push": ["cleaned", "report", "normalize", "fill", "overwrite", "fields", "addUnrecorded"],
        "report": ["url"], "testFailureMode": [],
    ]

    /// Loads and checks the account in `folder` (`Jobs/<account>`); throws its first problem.
    public static func load(folder: String) throws(ConfigurationProblem) -> AccountConfig {
        var reader = try ConfigurationReader(folder: folder)
        let config = reader.read()
        if let first = reader.problems.first { throw first }
        return config!
    }

    /// Every problem of the account in `folder`, for `stocktake check`.
    public static func problems(folder: String) -> [ConfigurationProblem] {
        do {
            var reader = try ConfigurationReader(folder: folder)
            _ = reader.read()
            return reader.problems
        } catch {
            return [error]
        }
    }

    /// A path from the configuration, relative to the account folder unless absolute.
    public func resolve(_ path: String) -> String {
        Self.resolve(path, in: folder)
    }

    static func resolve(_ path: String, in folder: String) -> String {
        let joined = path.hasPrefix("/") ? path : (folder as NSString).appendingPathComponent(path)
        // `Jobs/vt-nis/../../samples/…` reads as `samples/…` in messages; a trailing slash (a folder) is kept.
        let clean = (joined as NSString).standardizingPath
        return path.hasSuffix("/") && !clean.hasSuffix("/") ? clean + "/" : clean
    }
}

extension AccountConfig {
    /// The reconciliation this account asks for, writing into `outputDirectory`, measured against `asOf`.
    public func request(asOf: InventoryDate, outputDirectory: String, push: Bool) -> SyncedReconcileRequest {
        var rules = ReconciliationRules(asOf: asOf)
        rules.tagDigits = tagDigits
        rules.cnsDigits = cnsDigits
        rules.staleAfterDays = staleAfterDays
        rules.precedence = precedence
        rules.fallbackIdentifiers = identifierOrder
        rules.limits.maxFieldBytes = maxFieldBytes
        rules.limits.maxRows = maxRows
        var reconcile = ReconcileRequest(
            account: account.text, central: central.location, rules: rules, outputDirectory: outputDirectory)
        reconcile.displayName = name
        reconcile.timeZone = timeZone
        reconcile.centralSheet = central.sheet.map(SheetSelection.named) ?? .first
        reconcile.sightings = sightings
        reconcile.registers = registers
        reconcile.buildings = buildings
        reconcile.writeBack = writeBack
        reconcile.columnMapping = columns
        reconcile.acknowledgements = acknowledged
        reconcile.allowedRoots = roots
        var request = SyncedReconcileRequest(reconcile: reconcile)
        request.centralProvider = central.provider
        request.keepsCentralSnapshot = true
        request.push = push && pushCleaned
        request.reportTo = push ? reportTo.flatMap { try? EndpointURL($0) } : nil
        return request
    }
}
