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
