import StocktakeCore

/// A command line parsed against its command's option table.
///
/// Options are written `--name value` or `--name=value`; a value given apart may not start with `--`. `--` ends the
/// options: everything after it is a positional argument, even when it starts with a dash. A flag may be repeated;
/// an option that takes a value may be given more than once only when it is declared repeatable. An unknown option
/// is refused with the closest declared one as a suggestion. Numbers and dates are checked here, so a command reads
/// its values without failing.
struct ParsedArguments {
    /// The command the line was parsed for.
    let configuration: CommandConfiguration
    /// The arguments that are not options, in order.
    let positionals: [String]
    /// The values of each option that takes one, by name, in order.
    private let values: [String: [String]]
    /// The flags given.
    private let flags: Set<String>

    /// Parses `arguments` (the words after the command's name) against the command's options.
    init(_ arguments: [String], for configuration: CommandConfiguration) throws(StocktakeError) {
        self.configuration = configuration
        var positionals: [String] = []
        var values: [String: [String]] = [:]
        var flags: Set<String> = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                positionals += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            var name = argument
            var attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            guard let option = configuration.options.first(where: { $0.name == name }) else {
                // `--help` itself is seen before parsing; with a value attached it is still no unknown option.
                if name == "--help" { throw configuration.usageError("--help takes no value") }
                throw configuration.usageError(Self.unknownOption(name, among: configuration.options))
            }
            guard option.takesValue else {
                guard attached == nil else { throw configuration.usageError("\(name) takes no value") }
                flags.insert(name)
                continue
            }
            if let attached {
                values[name, default: []].append(attached)
            } else {
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw configuration.usageError("\(name) needs a value")
                }
                values[name, default: []].append(arguments[index])
                index += 1
            }
        }
        for option in configuration.options {
            let given = values[option.name] ?? []
            if given.count > 1, !option.isRepeatable {
                throw configuration.usageError("\(option.name) is given \(given.count) times; give it once")
            }
            for text in given {
                try Self.check(text, of: option, configuration)
            }
        }
        self.positionals = positionals
        self.values = values
        self.flags = flags
    }

    /// Whether `arguments` ask for the command's help: `--help` or `-h` before any `--`, wherever else it is.
    static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
    }

    /// Whether the flag was given.
    func flag(_ option: Option) -> Bool {
        precondition(declares(option) && !option.takesValue, "\(option.name) is not a flag of \(configuration.name)")
        return flags.contains(option.name)
    }

    /// Every value of the option, in order.
    func values(_ option: Option) -> [String] {
        precondition(declares(option) && option.takesValue, "\(option.name) takes no value in \(configuration.name)")
        return values[option.name] ?? []
    }

    /// Every value of the option once, in the order first given: `--account a --account a` names one account.
    func distinctValues(_ option: Option) -> [String] {
        var seen: Set<String> = []
        return values(option).filter { seen.insert($0).inserted }
    }

    /// The value of the option, or `nil` when it is not given.
    func value(_ option: Option) -> String? {
        values(option).last
    }

    /// The whole number of a `.number` option, already checked against its range.
    func number(_ option: Option) -> Int? {
        value(option).flatMap { Int($0) }
    }

    /// The date of a `.date` option, already checked.
    func date(_ option: Option) -> InventoryDate? {
        value(option).flatMap(InventoryDate.parseISO)
    }

    /// Fails with "unexpected argument X" when any positional argument was given.
    func noPositionals() throws(StocktakeError) {
        if let extra = positionals.first { throw usageError("unexpected argument \(extra)") }
    }

    /// A usage error of the command, pointing at its help.
    func usageError(_ problem: String) -> StocktakeError {
        configuration.usageError(problem)
    }

    private func declares(_ option: Option) -> Bool {
        configuration.options.contains { $0.name == option.name && $0.kind == option.kind }
    }

    /// Refuses `text` as the value of `option` unless it is of the option's kind.
    private static func check(_ text: String, of option: Option, _ configuration: CommandConfiguration)
        throws(StocktakeError)
    {
        switch option.kind {
        case .flag, .text:
            return
        case .number(_, let range):
            guard let number = Int(text), range.contains(number) else {
                throw configuration.usageError(
                    "\(option.name) must be a whole number from \(range.lowerBound) to \(range.upperBound), "
                        + "not \"\(text)\"")
            }
        case .date:
            guard InventoryDate.parseISO(text) != nil else {
                throw configuration.usageError("\(option.name) must be a date as YYYY-MM-DD, not \"\(text)\"")
            }
        }
    }

    /// "unknown option --acount", and "; did you mean --account?" when a declared option (or `--help`) is close.
    static func unknownOption(_ name: String, among options: [Option]) -> String {
        let candidates = options.map(\.name) + ["--help"]
        guard let closest = closest(to: name, among: candidates) else { return "unknown option \(name)" }
        return "unknown option \(name); did you mean \(closest)?"
    }

    /// The candidate nearest to `name` when it is close enough to be a slip: at most one edit for a name of up to
    /// five letters, two for a longer one (an edit inserts, deletes or changes a character, or swaps two
    /// neighbours). The first of equally close candidates wins.
    static func closest(to name: String, among candidates: [String]) -> String? {
        let letters = name.drop { $0 == "-" }.count
        let allowed = letters <= 5 ? 1 : 2
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(name, candidate)
            if distance <= allowed, distance < best?.distance ?? Int.max {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// The number of insertions, deletions, changes and swaps of neighbouring characters that turn `first` into
    /// `second` (the optimal string alignment distance).
    static func editDistance(_ first: String, _ second: String) -> Int {
        let first = Array(first)
        let second = Array(second)
        guard !first.isEmpty, !second.isEmpty else { return max(first.count, second.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: second.count + 1), count: first.count + 1)
        for row in 0...first.count { table[row][0] = row }
        for column in 0...second.count { table[0][column] = column }
        for row in 1...first.count {
            for column in 1...second.count {
                let change = first[row - 1] == second[column - 1] ? 0 : 1
                var distance = min(
                    table[row - 1][column] + 1, table[row][column - 1] + 1, table[row - 1][column - 1] + change)
                if row > 1, column > 1, first[row - 1] == second[column - 2], first[row - 2] == second[column - 1] {
                    distance = min(distance, table[row - 2][column - 2] + 1)
                }
                table[row][column] = distance
            }
        }
        return table[first.count][second.count]
    }
}
