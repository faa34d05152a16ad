/// Everything `stocktake reconcile` needs to reconcile one account from local files.
public struct ReconcileRequest: Sendable {
    /// The account name shown in logs, `run.json` and the report.
    public var account: String
    /// The account's name for people, shown in the report's title; `nil` to show `account`.
    public var displayName: String?
    /// The zone the report states the run's time in.
    public var timeZone = ReportTimeZone.utc
    /// The central sheet.
    public var central: String
    /// Which sheet of the central sheet's workbook is the sheet (`.first` for a CSV file); never `.all`.
    public var centralSheet = SheetSelection.first
    /// Sighting files, or folders whose spreadsheets (`.csv`, `.tsv`, `.txt`, `.xlsx`) are all sightings.
    public var sightings: [SourceEntry] = []
    /// Register files or folders.
    public var registers: [SourceEntry] = []
    /// The buildings table, when the account has one.
    public var buildings: String?
    /// An extra column mapping file.
    public var columns: String?
    /// Extra column mappings given directly (an account's `columns`), applied after `columns`.
    public var columnMapping: [String: ColumnTarget] = [:]
    public var rules: ReconciliationRules
    /// What a push may change in the central sheet; `changes.csv` lists it on every run, pushed or not.
    public var writeBack = WriteBackOptions()
    /// Where the outputs are written; created when missing.
    public var outputDirectory: String
    /// The ledger of the account's last run (its `ledger.csv`), which tonight's findings are held against; `nil`, or
    /// a path where no file is, on an account's first run.
    public var ledger: String?
    /// The acknowledgements (`acknowledged.csv` or a sheet with the same columns), when the account has them.
    public var acknowledgements: String?
    /// The failures the run simulates (`--simulate-failure`); of them, `disk-full` makes the first output's write
    /// fail as a full disk does.
    public var simulation = FailureSimulation()
    /// The folders (and files) the local sources must lie in once symbolic links are followed (an account's
    /// `rules.allowedRoots`); `nil` reads any path given, as `stocktake reconcile` does.
    public var allowedRoots: AllowedRoots?

    public init(account: String, central: String, rules: ReconciliationRules, outputDirectory: String) {
        self.account = account
        self.central = central
        self.rules = rules
        self.outputDirectory = outputDirectory
    }
}
