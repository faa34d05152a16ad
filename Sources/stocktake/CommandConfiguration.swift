import StocktakeCore

/// What a command is called, what it does and which options it takes: the one source of its `--help` and of how
/// its command line is parsed.
struct CommandConfiguration: Sendable {
    /// A positional argument, listed in the help with the options.
    struct Argument: Sendable {
        /// The name the usage lines give it: `ID`.
        let name: String
        /// What to give, in one or more sentences.
        let help: String
    }

    /// A group of the Options section: a paragraph that introduces it (for every group but the first), then its
    /// arguments and options, one row each.
    struct Section: Sendable {
        let introduction: String?
        let arguments: [Argument]
        let options: [Option]

        init(introduction: String? = nil, arguments: [Argument] = [], options: [Option]) {
            self.introduction = introduction
            self.arguments = arguments
            self.options = options
        }
    }

    /// The widest a help line gets.
    static let lineLength = 120
    /// The indentation of the usage lines and of the rows of the Options section.
    private static let indentation = "    "

    /// The command's name after `stocktake`: `run`.
    let name: String
    /// What the command does: the paragraph above the usage lines.
    let abstract: String
    /// The usage lines, each starting with `stocktake` or lined up under the one above.
    let synopsis: String
    /// The Options section, group by group.
    let sections: [Section]
    /// What follows the options: output, exit statuses. Empty for none.
    let discussion: String

    init(name: String, abstract: String, synopsis: String, sections: [Section], discussion: String = "") {
        self.name = name
        self.abstract = abstract
        self.synopsis = synopsis
        self.sections = sections
        self.discussion = discussion
        let names = sections.flatMap(\.options).map(\.name)
        precondition(Set(names).count == names.count, "\(name) declares an option twice")
    }

    /// Every option the command takes, in the order the help lists them.
    var options: [Option] { sections.flatMap(\.options) }

    /// The text `stocktake NAME --help` prints: the abstract, the usage lines, the options as a table generated
    /// from the declarations (aligned, wrapped at ``lineLength`` columns), and the discussion.
    var help: String {
        let rows = sections.map { section in
            section.arguments.map { ($0.name, $0.help) } + section.options.map { ($0.label, $0.listedHelp) }
        }
        let labelWidth = rows.joined().map(\.0.count).max() ?? 0
        let textColumn = Self.indentation.count + labelWidth + 2
        var lines = [abstract, "", "Usage:"]
        lines += synopsis.split(separator: "\n", omittingEmptySubsequences: false).map { Self.indentation + $0 }
        lines += ["", "Options:"]
        for (number, section) in sections.enumerated() {
            if number > 0 { lines.append("") }
            if let introduction = section.introduction { lines.append(introduction) }
            for (label, text) in rows[number] {
                let start =
                    Self.indentation + label
                    + String(repeating: " ", count: textColumn - Self.indentation.count - label.count)
                lines += Self.wrap(text, width: Self.lineLength - textColumn).enumerated().map { line, words in
                    (line == 0 ? start : String(repeating: " ", count: textColumn)) + words
                }
            }
        }
        if !discussion.isEmpty { lines += ["", discussion] }
        return lines.joined(separator: "\n")
    }

    /// `text` broken between words into lines of at most `width` characters (a longer word has a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        return line.isEmpty ? lines : lines + [line]
    }

    /// A usage error naming the command and pointing at its help: "run: PROBLEM. See 'stocktake run --help'."
    func usageError(_ problem: String) -> StocktakeError {
        let sentence = problem.hasSuffix(".") ? String(problem.dropLast()) : problem
        let end = sentence.hasSuffix("?") ? "" : "."
        return .usage("\(name): \(sentence)\(end) See 'stocktake \(name) --help'.")
    }
}
