/// An error a command reports to its user: a one-line description that says what to do, and an exit status.
public protocol UserFacingError: Error, CustomStringConvertible {
    var exitStatus: ExitStatus { get }
}

extension StocktakeError: UserFacingError {}
