import Foundation
import StocktakeCore
import StocktakeJob

/// `stocktake check`: would tonight's run work for each account? Tried now, nothing written or pushed.
enum CheckCommand {
    static let usage = """
        Check every account under the jobs folder: its configuration, secrets files, buildings table, every sheet
        (local files read, remote ones pulled with the account's credentials) and its column mapping.

        Usage:
            stocktake check [--jobs DIR] [--account NAME]...

        Options:
            --jobs DIR      The account folders, one per company, each with account.json (default Jobs).
            --account NAME  Only this account; repeat for more.

        Prints one line per check: account, item, OK or FAIL, detail (never a token), then a count.
        Exit status: 0 everything would work tonight; 78 a configuration, secrets file or column mapping must be
        fixed; 69 only a server could not be reached (try again later); 66 no jobs folder; 64 bad usage.
        """

    static func run(_ arguments: [String]) throws {
        var arguments = ArgumentList(arguments, command: "check")
        let jobs = try arguments.value("--jobs") ?? NightlyRunOptions().jobs
        let accounts = try arguments.values("--account")
        let extra = try arguments.positionals()
        guard extra.isEmpty else { throw arguments.usage("unexpected argument \(extra[0])") }
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
        if status != .success { exit(status.rawValue) }
    }
}
