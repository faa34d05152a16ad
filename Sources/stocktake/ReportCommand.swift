import Foundation
import StocktakeCore
import StocktakeJob

/// `stocktake report`: prints where an account's latest report is (or a given run's), and opens it when asked.
enum ReportCommand: Command {
    static let run = Option(
        "--run", .text(placeholder: "ID"),
        help: "The run whose report to show, by its id (a folder under state/<account>/runs; default the latest).")
    static let open = Option("--open", help: "Open the report with xdg-open after printing its path.")
    static let account = Option(
        "--account", .text(placeholder: "NAME"), help: "The account whose report this is (required).")

    static let configuration = CommandConfiguration(
        name: "report",
        abstract: """
            Print the path of the report.html of an account's latest run, or of the run --run names, from the state
            folder; with --open, open it in the desktop's browser with xdg-open.
            """,
        synopsis: "stocktake report --account NAME [--run ID] [--open] [--jobs DIR] [--state DIR]",
        sections: [.init(options: [account, run, open, SharedOptions.jobs, SharedOptions.state])],
        discussion: """
            The path is printed even when it cannot be opened: without xdg-open, open it in a browser yourself.
            Exit status: 0 printed (and opened); 64 bad usage, an unknown account or run id; 66 the account has no
            run yet, or the run has no report.html; 69 --open, but xdg-open is missing or failed.
            """)

    static func run(_ arguments: ParsedArguments) throws {
        let defaults = NightlyRunOptions()
        guard let name = arguments.value(account) else { throw arguments.usageError("--account is required") }
        let locator = ReportLocator(
            jobs: arguments.value(SharedOptions.jobs) ?? defaults.jobs,
            state: arguments.value(SharedOptions.state) ?? defaults.state)
        let path = try locator.report(account: name, run: arguments.value(run))
        // Written at once, before xdg-open runs: the path is there even when opening fails.
        FileHandle.standardOutput.write(Data((ControlCharacters.escaped(path) + "\n").utf8))
        guard arguments.flag(open) else { return }
        try ReportLocator.open(path, searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "")
    }
}
