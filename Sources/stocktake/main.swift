import Foundation
import StocktakeCore

let overview = """
    stocktake \(StocktakeVersion.current): reconcile asset inventories from scattered spreadsheets.

    Usage:
        stocktake reconcile --central FILE [--sighting FILE|DIR]... [--register FILE|DIR]... --out DIR [...]
        stocktake inspect FILE [--columns FILE] [--rows] [--json]
        stocktake run [--jobs DIR] [--state DIR] [--account NAME]... [--shard I/N] [--parallel N] [...]
        stocktake check [--jobs DIR] [--account NAME]...
        stocktake lookup ID | --custodian ID [--account NAME] [--jobs DIR] [--state DIR]
        stocktake init NAME [--jobs DIR]
        stocktake --version

    Run 'stocktake COMMAND --help' for a command's options.
    """

let commands: [String: (usage: String, run: ([String]) throws -> Void)] = [
    "reconcile": (ReconcileCommand.usage, ReconcileCommand.run),
    "inspect": (InspectCommand.usage, InspectCommand.run),
    "run": (RunCommand.usage, RunCommand.run),
    "check": (CheckCommand.usage, CheckCommand.run),
    "lookup": (LookupCommand.usage, LookupCommand.run),
    "init": (InitCommand.usage, InitCommand.run),
    // Hidden: the child process `run` starts for each account.
    "run-account": (RunAccountCommand.usage, RunAccountCommand.run),
]

var arguments = Array(CommandLine.arguments.dropFirst())
let first = arguments.first ?? "--help"
if first == "--help" || first == "-h" || first == "help" {
    print(overview)
    exit(0)
}
if first == "--version" {
    print("stocktake \(StocktakeVersion.current)")
    exit(0)
}
guard let command = commands[first] else {
    FileHandle.standardError.write(Data("stocktake: unknown command \(first). See 'stocktake --help'.\n".utf8))
    exit(ExitStatus.usage.rawValue)
}
arguments.removeFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    print(command.usage)
    exit(0)
}
do {
    try command.run(arguments)
} catch let error as any UserFacingError {
    FileHandle.standardError.write(Data("stocktake: \(error)\n".utf8))
    exit(error.exitStatus.rawValue)
} catch {
    FileHandle.standardError.write(Data("stocktake: \(error)\n".utf8))
    exit(ExitStatus.ioError.rawValue)
}
