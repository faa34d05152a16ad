import StocktakeCore
import Testing

@testable import stocktake

/// The `--help` text generated from a command's option table, and the usage errors that point at it.
struct CommandConfigurationTests {
    static let demo = CommandConfiguration(
        name: "demo",
        abstract: "Do the demo.",
        synopsis: """
            stocktake demo FILE [--jobs DIR] [--tag TAG]...
                           [--quiet]
            """,
        sections: [
            .init(
                arguments: [.init(name: "FILE", help: "The file.")],
                options: [
                    SharedOptions.jobs,
                    Option(
                        "--tag", .text(placeholder: "TAG"), repeatable: true,
                        help: String(repeating: "word ", count: 30) + "end."),
                ]),
            .init(introduction: "Quieter:", options: [SharedOptions.quiet]),
        ],
        discussion: "Exit status: 0 done.")

    @Test func theHelpIsGeneratedFromTheTable() {
        // The first line of --tag's help is exactly 120 characters: 16 for the label column, 21 words of 4 and 20
        // spaces.
        let words = { (count: Int) in Array(repeating: "word", count: count).joined(separator: " ") }
        #expect(
            Self.demo.help == """
                Do the demo.

                Usage:
                    stocktake demo FILE [--jobs DIR] [--tag TAG]...
                                   [--quiet]

                Options:
                    FILE        The file.
                    --jobs DIR  The account folders, one per company, each with account.json (default Jobs).
                    --tag TAG   \(words(21))
                                \(words(9)) end. Repeat for more.

                Quieter:
                    --quiet     Do not log progress on standard error.

                Exit status: 0 done.
                """)
    }

    @Test func withoutADiscussionTheHelpEndsWithTheOptions() {
        let bare = CommandConfiguration(
            name: "bare", abstract: "Bare.", synopsis: "stocktake bare", sections: [.init(options: [])])
        #expect(bare.help == "Bare.\n\nUsage:\n    stocktake bare\n\nOptions:")
    }

    @Test(arguments: StocktakeCommand.commands.map { $0.configuration.name })
    func everyHelpLineFitsAndEveryOptionIsListed(command: String) throws {
        let configuration = try #require(StocktakeCommand.commands.first { $0.configuration.name == command })
            .configuration
        let lines = configuration.help.split(separator: "\n")
        for line in lines {
            #expect(line.count <= CommandConfiguration.lineLength, "too long: \(line)")
        }
        for option in configuration.options {
            #expect(lines.contains { $0.hasPrefix("    \(option.label)  ") }, "\(option.name) has no row")
            #expect(configuration.synopsis.contains(option.label), "\(option.name) is not in the usage lines")
        }
    }

    @Test(arguments: StocktakeCommand.commands.map { $0.configuration.name })
    func theUsageLinesNameOnlyDeclaredOptions(command: String) throws {
        let configuration = try #require(StocktakeCommand.commands.first { $0.configuration.name == command })
            .configuration
        let names = Set(configuration.options.map(\.name))
        let mentioned = configuration.synopsis.split(whereSeparator: { " []|.\n".contains($0) })
            .filter { $0.hasPrefix("--") }
        for name in mentioned {
            #expect(names.contains(String(name)), "\(name) is in the usage lines but not declared")
        }
    }

    @Test func wrapBreaksBetweenWords() {
        #expect(CommandConfiguration.wrap("one two three four", width: 9) == ["one two", "three", "four"])
        #expect(CommandConfiguration.wrap("one two", width: 7) == ["one two"])
        #expect(CommandConfiguration.wrap("unbreakable word", width: 4) == ["unbreakable", "word"])
        #expect(CommandConfiguration.wrap("", width: 10) == [])
    }

    @Test(arguments: [
        ("give one NAME", "demo: give one NAME. See 'stocktake demo --help'."),
        ("give one NAME.", "demo: give one NAME. See 'stocktake demo --help'."),
        (
            "unknown option --x; did you mean --y?",
            "demo: unknown option --x; did you mean --y? See 'stocktake demo --help'."
        ),
    ])
    func aUsageErrorEndsWithOneMarkAndPointsAtTheHelp(problem: String, message: String) {
        #expect(Self.demo.usageError(problem) == .usage(message))
    }
}
