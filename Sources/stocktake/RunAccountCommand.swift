import Foundation
import StocktakeCore
import StocktakeJob

/// `stocktake run-account`: one account of `stocktake run`, in the child process `run` starts for it (forked from
/// `launch-accounts`, or executed when the launcher is gone). Not listed in `stocktake --help`: people run
/// `stocktake run --account NAME`.
enum RunAccountCommand: Command {
    static let maximumMemory = Option(
        "--max-memory-mb", .number(placeholder: "N", range: 1...1_048_576),
        help: "The memory the account's process may use: its rules.maxMemoryMB, or less when run is limited itself.")

    static let configuration = CommandConfiguration(
        name: "run-account",
        abstract: """
            Run one account as a child process of 'stocktake run' (which starts it; run 'stocktake run --account NAME'
            yourself instead). Writes the account's outcome as one JSON line on standard output; ends when its standard
            input closes.
            """,
        synopsis: """
            stocktake run-account --jobs DIR --state DIR --account NAME --as-of YYYY-MM-DD --max-memory-mb N
                                  [--no-push] [--dry-run] [--accept-shrink] [--quiet]
                                  [--simulate-failure KINDS]
            """,
        sections: [
            .init(options: [
                SharedOptions.jobs, SharedOptions.state, SharedOptions.account, SharedOptions.asOf, maximumMemory,
                RunCommand.noPush, RunCommand.dryRun, RunCommand.acceptShrink, SharedOptions.quiet,
                RunCommand.simulateFailure,
            ])
        ])

    static func run(_ arguments: ParsedArguments) throws {
        var options = NightlyRunOptions()
        func required(_ option: Option) throws(StocktakeError) -> String {
            guard let value = arguments.value(option) else {
                throw arguments.usageError("\(option.name) is required")
            }
            return value
        }
        options.jobs = try required(SharedOptions.jobs)
        options.state = try required(SharedOptions.state)
        let account = try required(SharedOptions.account)
        guard let date = arguments.date(SharedOptions.asOf) else { throw arguments.usageError("--as-of is required") }
        options.asOf = date
        guard let memoryLimitMB = arguments.number(Self.maximumMemory) else {
            throw arguments.usageError("--max-memory-mb is required")
        }
        options.push = !arguments.flag(RunCommand.noPush)
        options.dryRun = arguments.flag(RunCommand.dryRun)
        options.acceptShrink = arguments.flag(RunCommand.acceptShrink)
        options.logs = !arguments.flag(SharedOptions.quiet)
        options.simulatedFailures = try RunCommand.simulatedFailures(arguments)
        try arguments.noPositionals()

        let outcome = AccountChild.run(account: account, options: options, memoryLimitMB: memoryLimitMB)
        FileHandle.standardOutput.write(Data((AccountChild.resultLine(outcome) + "\n").utf8))
    }
}
