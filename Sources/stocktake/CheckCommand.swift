import Foundation
import StocktakeCore
import StocktakeJob

/// `stocktake check`: would tonight's run work for each account? Tried now, nothing written or pushed.
enum CheckCommand: Command {
    static let configuration = CommandConfiguration(
        name: "check",
        abstract: """
            Check every account under the jobs folder: its configuration, secrets files, buildings table, every sheet
            (local files read, remote ones pulled with the account's credentials) and its column mapping.
            """,
        synopsis: "stocktake check [--jobs DIR] [--account NAME]...",
        sections: [.init(options: [SharedOptions.jobs, SharedOptions.accounts])],
        discussion: """
            Prints one line per check: account, item, OK or FAIL, detail (never a token), then a count.
            Exit status: 0 everything would work tonight; 78 a configuration, secrets file or column mapping must be
            fixed; 69 only a server could not be reached (try again later); 66 no jobs folder; 64 bad usage.
            """)

    static func run(_ arguments: ParsedArguments) throws {
        let jobs = arguments.value(SharedOptions.jobs) ?? NightlyRunOptions().jobs
        let accounts = arguments.distinctValues(SharedOptions.accounts)
        try arguments.noPositionals()
        var directory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: jobs, isDirectory: &directory), directory.boolValue else {
            throw StocktakeError.missingInput(path: jobs, what: "jobs folder")
        }
        let results = AccountCheck.check(jobs: jobs, accounts: accounts)
        // Details quote headers and file names: escaped, each check stays one line of the table.
        let safe = results.map { result in
            CheckResult(
                account: ControlCharacters.escaped(result.account), item: ControlCharacters.escaped(result.item),
                status: result.status, detail: ControlCharacters.escaped(result.detail))
        }
        print(AccountCheck.table(safe), terminator: "")
        let status = AccountCheck.exitStatus(results)
        if status != .success { throw CommandExit(status) }
    }
}
