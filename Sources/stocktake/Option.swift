/// One option a command accepts, declared once in the command's table: the table drives both the parsing of the
/// command line and the Options section of the command's `--help`.
struct Option: Sendable {
    /// What follows the option's name on the command line.
    enum Kind: Sendable, Equatable {
        /// Nothing: the option is on or off (`--quiet`).
        case flag
        /// Any text (`--jobs DIR`); `placeholder` names it in the help.
        case text(placeholder: String)
        /// A whole number within `range` (`--parallel N`).
        case number(placeholder: String, range: ClosedRange<Int>)
        /// A calendar date written YYYY-MM-DD (`--as-of YYYY-MM-DD`).
        case date
    }

    /// The name as typed, with its two dashes: `--jobs`.
    let name: String
    /// Whether a value follows, and which.
    let kind: Kind
    /// Whether the option may be given more than once (each value is kept, in order).
    let isRepeatable: Bool
    /// One or more sentences for the help; "Repeat for more." is added for a repeatable option.
    let help: String

    init(_ name: String, _ kind: Kind = .flag, repeatable: Bool = false, help: String) {
        precondition(name.hasPrefix("--") && name.count > 2, "an option's name starts with --: \(name)")
        self.name = name
        self.kind = kind
        self.isRepeatable = repeatable
        self.help = help
    }

    /// The same option, accepted more than once: for a command that takes several where another takes one.
    func repeatable() -> Option {
        Option(name, kind, repeatable: true, help: help)
    }

    /// Whether a value follows the name.
    var takesValue: Bool { kind != .flag }

    /// The option as the help and usage lines write it: `--jobs DIR`, `--quiet`.
    var label: String {
        switch kind {
        case .flag: name
        case .text(let placeholder), .number(let placeholder, _): "\(name) \(placeholder)"
        case .date: "\(name) YYYY-MM-DD"
        }
    }

    /// The help text as listed: with "Repeat for more." when the option is repeatable.
    var listedHelp: String {
        isRepeatable ? help + " Repeat for more." : help
    }
}
