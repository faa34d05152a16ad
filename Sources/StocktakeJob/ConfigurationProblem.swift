import StocktakeCore

/// Something wrong in an account's configuration: which account, which key, what is wrong and how to fix it.
public struct ConfigurationProblem: UserFacingError, Hashable {
    public var account: String
    /// The key's path in `account.json` (`rules.tagDigits`), or "" for the file as a whole.
    public var key: String
    public var problem: String
    public var fix: String

    public init(account: String, key: String, problem: String, fix: String) {
        self.account = account
        self.key = key
        self.problem = problem
        self.fix = fix
    }

    public var exitStatus: ExitStatus { .configuration }

    public var description: String {
        let subject = key.isEmpty ? "account.json" : "\"\(key)\""
        let clause = problem.hasSuffix(".") ? String(problem.dropLast()) : problem
        return "Account \(account): \(subject) \(clause). \(fix)"
    }
}
