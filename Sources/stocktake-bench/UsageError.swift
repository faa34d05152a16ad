/// A mistake on the command line, with a one-line message that says what to type instead.
struct UsageError: Error {
    /// The message, one sentence.
    var message: String

    init(_ message: String) {
        self.message = message
    }
}

extension UsageError {
    /// The command `parse` makes of a subcommand's `arguments`, or `nil` when there is nothing to run: after
    /// printing `usage` for `--help` (`status` 0), or the mistake on standard error (`status` 64).
    static func command<Command>(
        _ arguments: [String], usage: String, status: inout Int32,
        parse: ([String]) throws(UsageError) -> Command?
    ) -> Command? {
        do {
            guard let command = try parse(arguments) else {
                print(usage)
                status = 0
                return nil
            }
            return command
        } catch {
            StandardError.write("stocktake-bench: \(error.message)")
            status = 64
            return nil
        }
    }
}

extension UsageError {
    /// The `--option value` pairs of a subcommand's arguments, in order, or `nil` for `-h` and `--help`; throws for an
    /// option not in `options` and for one without its value.
    static func pairs(_ arguments: [String], options: [String], of subcommand: String) throws(UsageError)
        -> [(option: String, value: String)]?
    {
        var pairs: [(option: String, value: String)] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-h" || argument == "--help" { return nil }
            guard options.contains(argument) else {
                throw UsageError(
                    "unknown option '\(argument)' for \(subcommand); run 'stocktake-bench \(subcommand) --help'.")
            }
            guard index < arguments.count else {
                throw UsageError("\(argument) needs a value; run 'stocktake-bench \(subcommand) --help'.")
            }
            pairs.append((argument, arguments[index]))
            index += 1
        }
        return pairs
    }

    /// `value` as a whole number of at least `minimum`.
    static func wholeNumber(_ value: String, of option: String, atLeast minimum: Int) throws(UsageError) -> Int {
        guard let number = Int(value), number >= minimum else {
            throw UsageError("\(option) must be a whole number of at least \(minimum), not '\(value)'.")
        }
        return number
    }

    /// `value` as a generator seed.
    static func seed(_ value: String) throws(UsageError) -> UInt64 {
        guard let seed = UInt64(value) else {
            throw UsageError("--seed must be a whole number from 0 to 18446744073709551615, not '\(value)'.")
        }
        return seed
    }
}
