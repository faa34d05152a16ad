/// A command of `stocktake`: its option table, and what it does with a command line parsed against it.
protocol Command {
    /// The name, help and options of the command.
    static var configuration: CommandConfiguration { get }

    /// Does the command's work. Throws a ``UserFacingError`` to report, or a ``CommandExit`` to end with another
    /// status than 0; never exits the process.
    static func run(_ arguments: ParsedArguments) throws
}
