import Foundation
import StocktakeCore

/// The top level of `stocktake`: the overview, `--version`, and dispatch to the commands.
enum StocktakeCommand {
    /// What `stocktake --help` prints, and a bare `stocktake` on standard error.
    static let overview = """
        stocktake \(StocktakeVersion.current): reconcile asset inventories from scattered spreadsheets.

        Usage:
            stocktake reconcile --central FILE [--sighting FILE|DIR]... [--register FILE|DIR]... --out DIR [...]
            stocktake inspect FILE [--columns FILE] [--rows] [--json]
            stocktake run [--jobs DIR] [--state DIR] [--account NAME]... [--shard I/N] [--parallel N] [...]
            stocktake check [--jobs DIR] [--account NAME]...
            stocktake lookup ID | --custodian ID [--account NAME] [--jobs DIR] [--state DIR]
            stocktake init NAME [--jobs DIR]
            stocktake ack ID... --account NAME --note TEXT [--until YYYY-MM-DD] [--by NAME]
            stocktake report --account NAME [--run ID] [--open]
            stocktake --version

        Run 'stocktake COMMAND --help' for a command's options.
        """

    /// Every command, by the name typed after `stocktake`. `run-account` is hidden from the overview: it is the
    /// child process `run` starts for each account, and so is `launch-accounts`, which forks those processes.
    static var commands: [any Command.Type] {
        [
            ReconcileCommand.self, InspectCommand.self, RunCommand.self, CheckCommand.self, LookupCommand.self,
            InitCommand.self, AckCommand.self, ReportCommand.self, RunAccountCommand.self, LaunchAccountsCommand.self,
        ]
    }

    /// Runs the command line `arguments` (without the program's name) and returns the process's exit status: every
    /// command throws how it ends, and here that becomes the status, with its message on standard error.
    static func exitStatus(running arguments: [String]) -> Int32 {
        do {
            try run(arguments)
            return 0
        } catch let end as CommandExit {
            if let message = end.message { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            return end.status
        } catch {
            // The error may quote a sheet's cells, so control characters are escaped; it is one line on standard
            // error.
            FileHandle.standardError.write(Data("stocktake: \(ControlCharacters.escaped("\(error)"))\n".utf8))
            return (error as? any UserFacingError)?.exitStatus.rawValue ?? ExitStatus.ioError.rawValue
        }
    }

    /// Runs the command line `arguments` (without the program's name). Help and the version go to standard
    /// output; a bare `stocktake` throws a ``CommandExit`` of 64 carrying the overview.
    static func run(_ arguments: [String]) throws {
        guard let first = arguments.first else { throw CommandExit(.usage, message: overview) }
        if first == "--help" || first == "-h" || first == "help" {
            print(overview)
            return
        }
        if first == "--version" {
            print("stocktake \(StocktakeVersion.current)")
            return
        }
        guard let command = commands.first(where: { $0.configuration.name == first }) else {
            throw StocktakeError.usage("unknown command \(first). See 'stocktake --help'.")
        }
        let rest = Array(arguments.dropFirst())
        if ParsedArguments.asksForHelp(rest) {
            print(command.configuration.help)
            return
        }
        try command.run(ParsedArguments(rest, for: command.configuration))
    }
}
