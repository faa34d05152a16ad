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
    let name = ControlCharacters.escaped(first)
    FileHandle.standardError.write(Data("stocktake: unknown command \(name). See 'stocktake --help'.\n".utf8))
    exit(ExitStatus.usage.rawValue)
}
arguments.removeFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    print(command.usage)
    exit(0)
}
/// Writes `error` as one line on standard error; it may quote a sheet's cells, so control characters are escaped.
func report(_ error: any Error) {
    FileHandle.standardError.write(Data("stocktake: \(ControlCharacters.escaped("\(error)"))\n".utf8))
}

do {
    try command.run(arguments)
} catch let error as any UserFacingError {
    report(error)
    exit(error.exitStatus.rawValue)
} catch {
    report(error)
    exit(ExitStatus.ioError.rawValue)
}
