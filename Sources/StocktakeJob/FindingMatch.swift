import StocktakeCore

/// One finding of an account's latest run that concerns a looked-up asset: a row of its `discrepancies.csv`.
public struct FindingMatch: Sendable, Equatable {
    public var id: String
    public var code: String
    /// `new`, `open` or `acknowledged`.
    public var state: String
    public var firstSeen: String
    public var message: String

    public init(id: String, code: String, state: String, firstSeen: String, message: String) {
        self.id = id
        self.code = code
        self.state = state
        self.firstSeen = firstSeen
        self.message = message
    }
}
