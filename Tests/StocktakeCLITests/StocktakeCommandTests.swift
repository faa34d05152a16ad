import StocktakeCore
import Testing

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
            stocktake --version

        Run 'stocktake COMMAND --help' for a command's options.

        """

    @Test(arguments: [["--help"], ["-h"], ["help"], []])
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
}
