import StocktakeCore
import Testing

@testable import stocktake

/// The top level of `stocktake`: help, version and command dispatch.
struct StocktakeCommandTests {
    let runner = CommandRunner()

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

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func helpPrintsTheOverview(arguments: [String]) throws {
        let result = try runner.run(arguments)
        #expect(result.status == 0)
        #expect(result.standardOutput == Self.overview)
        #expect(result.standardError == "")
    }

    @Test func version() throws {
        let result = try runner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "stocktake 0.1.0\n")
        #expect(StocktakeVersion.current == "0.1.0")
    }

    @Test(arguments: ["frobnicate", "--frob", "Reconcile"])
    func unknownCommand(command: String) throws {
        let result = try runner.run([command, "--central", "x.csv"])
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(result.standardError == "stocktake: unknown command \(command). See 'stocktake --help'.\n")
    }

    @Test func aBareStocktakeIsBadUsage() throws {
        let result = try runner.run([])
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(result.standardError == Self.overview)
    }

    @Test func anUnknownOptionSuggestsTheClosest() throws {
        let result = try runner.run(["check", "--acount", "acme"])
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "stocktake: check: unknown option --acount; did you mean --account? See 'stocktake check --help'.\n")
    }

    @Test func helpAfterADoubleDashIsAnArgument() throws {
        let result = try runner.run(["inspect", "--", "--help"])
        #expect(result.status == 66)
        #expect(result.standardOutput == "")
        #expect(result.standardError == "stocktake: --help: no such file. Check the path, or create it.\n")
    }

    // In-process: the dispatcher throws how the command line ends instead of exiting.

    @Test func inProcessABareStocktakeThrowsTheUsageAnd64() {
        #expect(throws: CommandExit(status: 64, message: StocktakeCommand.overview)) {
            try StocktakeCommand.run([])
        }
        #expect(Self.overview == StocktakeCommand.overview + "\n")
    }

    @Test func inProcessAnUnknownCommandOrOptionIsAUsageError() {
        #expect(throws: StocktakeError.usage("unknown command frobnicate. See 'stocktake --help'.")) {
            try StocktakeCommand.run(["frobnicate"])
        }
        #expect(
            throws: StocktakeError.usage(
                "lookup: unknown option --jbos; did you mean --jobs? See 'stocktake lookup --help'.")
        ) {
            try StocktakeCommand.run(["lookup", "--jbos", "J", "1"])
        }
    }

    @Test func inProcessEveryCommandIsFoundByItsName() {
        #expect(
            StocktakeCommand.commands.map { $0.configuration.name } == [
                "reconcile", "inspect", "run", "check", "lookup", "init", "ack", "report", "run-account",
                "launch-accounts",
            ])
    }
}
