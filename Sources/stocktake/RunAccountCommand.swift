import Foundation
import StocktakeCore
import StocktakeJob

/// `stocktake run-account`: one account of `stocktake run`, in the child process `run` starts for it. Not listed in
/// `stocktake --help`: people run `stocktake run --account NAME`.
enum RunAccountCommand {
    static let usage = """
        Run one account as a child process of 'stocktake run' (which starts it; run 'stocktake run --account NAME'
        yourself instead). Writes the account's outcome as one JSON line on standard output; ends when its standard
        input closes.

        Usage:
            stocktake run-account --jobs DIR --state DIR --account NAME --as-of YYYY-MM-DD --max-memory-mb N
                                  [--no-push] [--dry-run] [--accept-shrink] [--quiet]
        """

    static func run(_ arguments: [String]) throws {
        var arguments = ArgumentList(arguments, command: "run-account")
        var options = NightlyRunOptions()
        func required(_ name: String) throws -> String {
            guard let value = try arguments.value(name) else { throw arguments.usage("\(name) is required") }
            return value
        }
        options.jobs = try required("--jobs")
        options.state = try required("--state")
        let account = try required("--account")
        let text = try required("--as-of")
        guard let date = InventoryDate.parseISO(text) else {
            throw arguments.usage("--as-of must be a date as YYYY-MM-DD, not \"\(text)\"")
        }
        options.asOf = date
        guard let memoryLimitMB = try arguments.number("--max-memory-mb", in: 1...1_048_576) else {
            throw arguments.usage("--max-memory-mb is required")
        }
        options.push = !arguments.flag("--no-push")
        options.dryRun = arguments.flag("--dry-run")
        options.acceptShrink = arguments.flag("--accept-shrink")
        options.logs = !arguments.flag("--quiet")
        let extra = try arguments.positionals()
        guard extra.isEmpty else { throw arguments.usage("unexpected argument \(extra[0])") }

        let outcome = AccountChild.run(account: account, options: options, memoryLimitMB: memoryLimitMB)
        FileHandle.standardOutput.write(Data((AccountChild.resultLine(outcome) + "\n").utf8))
    }
}
