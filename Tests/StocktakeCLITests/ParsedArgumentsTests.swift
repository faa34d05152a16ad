import StocktakeCore
import Testing

@testable import stocktake

/// The parsing rules every command shares, run in-process against the commands' own option tables.
struct ParsedArgumentsTests {
    /// The message `stocktake` prints for a usage error of `command`.
    func usage(_ command: String, _ problem: String) -> StocktakeError {
        .usage("\(command): \(problem). See 'stocktake \(command) --help'.")
    }

    @Test func valuesApartAndAttachedWithAnEqualsSign() throws {
        let parsed = try ParsedArguments(
            [
                "--jobs=J", "--state", "S", "--account=a", "--account", "b", "--as-of=2026-11-20", "--parallel=3",
                "--env-file=a=b",
            ], for: RunCommand.configuration)
        #expect(parsed.value(SharedOptions.jobs) == "J")
        #expect(parsed.value(SharedOptions.state) == "S")
        #expect(parsed.values(SharedOptions.accounts) == ["a", "b"])
        #expect(parsed.date(SharedOptions.asOf) == InventoryDate.parseISO("2026-11-20"))
        #expect(parsed.number(RunCommand.parallel) == 3)
        #expect(parsed.value(RunCommand.environmentFile) == "a=b", "only the first = ends the name")
        #expect(parsed.positionals == [])
    }

    @Test func distinctValuesDropRepeats() throws {
        let parsed = try ParsedArguments(
            ["--account", "b", "--account=a", "--account", "b", "--account", "a"], for: CheckCommand.configuration)
        #expect(parsed.values(SharedOptions.accounts) == ["b", "a", "b", "a"])
        #expect(parsed.distinctValues(SharedOptions.accounts) == ["b", "a"])
    }

    @Test func anAttachedValueMayBeEmptyOrStartWithDashes() throws {
        let parsed = try ParsedArguments(["--jobs=", "--state=--x"], for: RunCommand.configuration)
        #expect(parsed.value(SharedOptions.jobs) == "")
        #expect(parsed.value(SharedOptions.state) == "--x")
    }

    @Test func optionsThatAreNotGivenAreAbsent() throws {
        let parsed = try ParsedArguments([], for: RunCommand.configuration)
        #expect(parsed.value(SharedOptions.jobs) == nil)
        #expect(parsed.values(SharedOptions.accounts) == [])
        #expect(parsed.number(RunCommand.parallel) == nil)
        #expect(parsed.date(SharedOptions.asOf) == nil)
        #expect(!parsed.flag(RunCommand.noPush))
    }

    @Test func doubleDashEndsTheOptions() throws {
        let parsed = try ParsedArguments(
            ["--account", "a", "--", "-1234", "--jobs", "--frob", "--"], for: LookupCommand.configuration)
        #expect(parsed.positionals == ["-1234", "--jobs", "--frob", "--"])
        #expect(parsed.value(SharedOptions.account) == "a")
        #expect(parsed.value(SharedOptions.jobs) == nil)
    }

    @Test func aLoneDashIsAPositionalArgument() throws {
        let parsed = try ParsedArguments(["-"], for: InspectCommand.configuration)
        #expect(parsed.positionals == ["-"])
    }

    @Test func aRepeatedFlagIsAccepted() throws {
        let parsed = try ParsedArguments(
            ["--no-push", "--dry-run", "--no-push", "--no-push"], for: RunCommand.configuration)
        #expect(parsed.flag(RunCommand.noPush))
        #expect(parsed.flag(RunCommand.dryRun))
        #expect(!parsed.flag(RunCommand.acceptShrink))
    }

    @Test func aFlagTakesNoValue() {
        #expect(throws: usage("run", "--no-push takes no value")) {
            try ParsedArguments(["--no-push=yes"], for: RunCommand.configuration)
        }
        #expect(throws: usage("run", "--help takes no value")) {
            try ParsedArguments(["--help=yes"], for: RunCommand.configuration)
        }
    }

    @Test(arguments: [["--account", "a", "--account", "b"], ["--account=a", "--account", "a"]])
    func aValueOptionThatIsNotRepeatableIsGivenOnce(arguments: [String]) {
        #expect(throws: usage("lookup", "--account is given 2 times; give it once")) {
            try ParsedArguments(["1"] + arguments, for: LookupCommand.configuration)
        }
    }

    @Test(arguments: [["--jobs"], ["--jobs", "--state", "s"], ["--jobs", "--"]])
    func aValueMustFollow(arguments: [String]) {
        #expect(throws: usage("check", "--jobs needs a value")) {
            try ParsedArguments(arguments, for: CheckCommand.configuration)
        }
    }

    @Test func aValueApartMayStartWithOneDash() throws {
        let parsed = try ParsedArguments(["--custodian", "-x"], for: LookupCommand.configuration)
        #expect(parsed.value(LookupCommand.custodian) == "-x")
        #expect(parsed.positionals == [])
    }

    @Test(arguments: [
        (["--stale-after-days", "-1"], "--stale-after-days must be a whole number from 0 to 36500, not \"-1\""),
        (["--tag-digits=six"], "--tag-digits must be a whole number from 1 to 18, not \"six\""),
        (["--as-of", "2026-13-01"], "--as-of must be a date as YYYY-MM-DD, not \"2026-13-01\""),
        (["--sighting", "a", "--sighting", "b", "--out", "1"], nil),
    ])
    func numbersAndDatesAreCheckedWhenParsed(arguments: [String], problem: String?) throws {
        if let problem {
            #expect(throws: usage("reconcile", problem)) {
                try ParsedArguments(arguments, for: ReconcileCommand.configuration)
            }
        } else {
            let parsed = try ParsedArguments(arguments, for: ReconcileCommand.configuration)
            #expect(parsed.values(ReconcileCommand.sighting) == ["a", "b"])
            #expect(parsed.value(ReconcileCommand.output) == "1")
        }
    }

    @Test(arguments: [
        ("lookup", "--acount", "unknown option --acount; did you mean --account?"),
        ("lookup", "--acount=acme", "unknown option --acount; did you mean --account?"),
        ("lookup", "-account", "unknown option -account; did you mean --account?"),
        ("lookup", "--jbos", "unknown option --jbos; did you mean --jobs?"),
        ("lookup", "--stat", "unknown option --stat; did you mean --state?"),
        ("lookup", "--custodain", "unknown option --custodain; did you mean --custodian?"),
        ("run", "--dryrun", "unknown option --dryrun; did you mean --dry-run?"),
        ("run", "--acounts", "unknown option --acounts; did you mean --account?"),
        ("run", "--hepl", "unknown option --hepl; did you mean --help?"),
        ("run", "--frob", "unknown option --frob"),
        ("lookup", "--shelf", "unknown option --shelf"),
        ("inspect", "--raw", "unknown option --raw"),
        ("init", "-f", "unknown option -f"),
    ])
    func anUnknownOptionSuggestsTheClosest(command: String, option: String, message: String) throws {
        let configuration = try #require(StocktakeCommand.commands.first { $0.configuration.name == command })
            .configuration
        let expected: StocktakeError = .usage(
            "\(command): \(message)\(message.hasSuffix("?") ? "" : ".") See 'stocktake \(command) --help'.")
        #expect(throws: expected) {
            try ParsedArguments(["x", option], for: configuration)
        }
    }

    @Test func noPositionalsNamesTheFirstExtraArgument() throws {
        let parsed = try ParsedArguments(["acme", "--jobs", "J", "more"], for: CheckCommand.configuration)
        #expect(parsed.positionals == ["acme", "more"])
        #expect(throws: usage("check", "unexpected argument acme")) { try parsed.noPositionals() }
        try ParsedArguments(["--jobs", "J"], for: CheckCommand.configuration).noPositionals()
    }

    @Test(arguments: [
        (["--help"], true), (["-h"], true), (["--frob", "x", "--help"], true), (["--", "--help"], false),
        (["x", "--", "-h"], false), (["--helpful"], false), ([], false),
    ])
    func helpIsAskedForBeforeAnyDoubleDash(arguments: [String], asks: Bool) {
        #expect(ParsedArguments.asksForHelp(arguments) == asks)
    }

    @Test(arguments: [
        ("", "", 0), ("", "abc", 3), ("jobs", "jobs", 0), ("jobs", "jbos", 1), ("acount", "account", 1),
        ("kitten", "sitting", 3), ("ca", "abc", 3),
    ])
    func editDistance(first: String, second: String, distance: Int) {
        #expect(ParsedArguments.editDistance(first, second) == distance)
        #expect(ParsedArguments.editDistance(second, first) == distance)
    }

    @Test func theClosestCandidateWinsAndTheFirstOfEquals() {
        #expect(ParsedArguments.closest(to: "--aa", among: ["--ab", "--ac"]) == "--ab")
        #expect(ParsedArguments.closest(to: "--statte", among: ["--stat", "--state"]) == "--state")
        #expect(ParsedArguments.closest(to: "--abc", among: ["--xyz"]) == nil)
        #expect(ParsedArguments.closest(to: "--raw", among: ["--rows"]) == nil, "two edits in three letters")
        #expect(ParsedArguments.closest(to: "--accont", among: ["--account"]) == "--account")
        #expect(ParsedArguments.closest(to: "--acc", among: ["--account"]) == nil)
    }
}
