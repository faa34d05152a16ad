import StocktakeCore

/// The command line of one subcommand, consumed option by option.
///
/// Options take `--name value` or `--name=value`; anything left over when the command is done is an error.
struct ArgumentList {
    private var arguments: [String]
    let command: String

    init(_ arguments: [String], command: String) {
        self.arguments = arguments
        self.command = command
    }

    /// Whether the flag was given (and removes it).
    mutating func flag(_ name: String) -> Bool {
        guard let index = arguments.firstIndex(of: name) else { return false }
        arguments.remove(at: index)
        return true
    }

    /// Every value of a repeatable option, in order.
    mutating func values(_ name: String) throws(StocktakeError) -> [String] {
        var found: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == name {
                guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") else {
                    throw usage("\(name) needs a value")
                }
                found.append(arguments[index + 1])
                arguments.removeSubrange(index...index + 1)
            } else if argument.hasPrefix(name + "=") {
                found.append(String(argument.dropFirst(name.count + 1)))
                arguments.remove(at: index)
            } else {
                index += 1
            }
        }
        return found
    }

    /// The value of an option given at most once.
    mutating func value(_ name: String) throws(StocktakeError) -> String? {
        let found = try values(name)
        guard found.count <= 1 else { throw usage("\(name) is given \(found.count) times; give it once") }
        return found.first
    }

    /// The value of an option as a whole number within `range`.
    mutating func number(_ name: String, in range: ClosedRange<Int>) throws(StocktakeError) -> Int? {
        guard let text = try value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw usage(
                "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return number
    }

    /// The remaining arguments that are not options; fails on any unknown option.
    mutating func positionals() throws(StocktakeError) -> [String] {
        if let unknown = arguments.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            throw usage("unknown option \(unknown)")
        }
        defer { arguments = [] }
        return arguments
    }

    /// A usage error that points at the command's help.
    func usage(_ problem: String) -> StocktakeError {
        let sentence = problem.hasSuffix(".") ? String(problem.dropLast()) : problem
        return .usage("\(command): \(sentence). See 'stocktake \(command) --help'.")
    }
}
