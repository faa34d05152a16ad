import StocktakeJob

/// `stocktake launch-accounts`: the account launcher `stocktake run` starts once per run, which forks each
/// account's process (see `AccountLauncher`). Not listed in `stocktake --help`: only `stocktake run` starts it.
enum LaunchAccountsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "launch-accounts",
        abstract: """
            Fork the account processes of 'stocktake run' (which starts it; never run it yourself). Reads requests from
            standard input, a socket to 'stocktake run', and ends when it closes.
            """,
        synopsis: "stocktake launch-accounts [ROOM]",
        sections: [.init(options: [])])

    /// The one argument, if any, is blank room for the command lines of the processes it forks (see
    /// `AccountLauncher.commandLineRoom`).
    static func run(_ arguments: ParsedArguments) throws {
        AccountLauncher.serve { arguments in StocktakeCommand.exitStatus(running: arguments) }
    }
}
