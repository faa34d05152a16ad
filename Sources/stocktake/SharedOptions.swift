/// The options several commands take, declared once so that each means, and is described, the same everywhere.
enum SharedOptions {
    /// The folder of account folders: `run`, `check`, `lookup`, `init`, `run-account`.
    static let jobs = Option(
        "--jobs", .text(placeholder: "DIR"),
        help: "The account folders, one per company, each with account.json (default Jobs).")

    /// The folder of each account's runs: `run`, `lookup`, `run-account`.
    static let state = Option(
        "--state", .text(placeholder: "DIR"),
        help: "Where each account's runs, latest run, lock and pending push live (default state).")

    /// One account, by its folder's name: `lookup`, `run-account`.
    static let account = Option(
        "--account", .text(placeholder: "NAME"),
        help: "Only this account, a folder under the jobs folder (default: every account, in name order).")

    /// Some accounts, by their folders' names: `run`, `check`.
    static let accounts = account.repeatable()

    /// The day a run is for: `reconcile`, `run`, `run-account`.
    static let asOf = Option(
        "--as-of", .date, help: "The run date staleness is measured against (default today, UTC).")

    /// No progress on standard error: `reconcile`, `run-account`.
    static let quiet = Option("--quiet", help: "Do not log progress on standard error.")
}
