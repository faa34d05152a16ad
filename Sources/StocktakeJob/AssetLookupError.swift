import StocktakeCore

/// Why a lookup could not read an account's latest run; each description is a sentence that says what to do.
public enum AssetLookupError: UserFacingError, Equatable {
    /// The name given with `--account` cannot be an account folder's name; `problem` says why.
    case invalidAccountName(name: String, problem: String)
    /// The account has no `latest` run in the state folder `state`.
    case noRun(account: String, state: String)
    /// No account has a `latest` run in the state folder `state`.
    case noRuns(state: String)
    /// The account's `account.json` is wrong, so its tag and CNS digit counts are unknown.
    case configuration(ConfigurationProblem)
    /// The latest run's `cleaned.csv` cannot be read.
    case unreadableTable(account: String, error: CSVError)
    /// The latest run's `cleaned.csv` lacks a column the lookup needs.
    case missingColumn(account: String, path: String, column: String)

    public var exitStatus: ExitStatus {
        switch self {
        case .invalidAccountName: .usage
        case .noRun, .noRuns: .noInput
        case .configuration: .configuration
        case .unreadableTable(_, .unreadable): .noInput
        case .unreadableTable, .missingColumn: .dataError
        }
    }

    public var description: String {
        switch self {
        case .invalidAccountName(let name, let problem):
            return "\"\(name)\" is not an account name: it \(problem). Give the name of a folder under Jobs/."
        case .noRun(let account, let state):
            return "Account \(account) has no run yet in \(state); run stocktake run first, "
                + "or give the state folder with --state."
        case .noRuns(let state):
            return
                "No account has a run yet in \(state); run stocktake run first, or give the state folder with --state."
        case .configuration(let problem):
            return problem.description
        case .unreadableTable(let account, let error):
            return "Account \(account): \(error) Run stocktake run again to rebuild the latest run."
        case .missingColumn(let account, let path, let column):
            return "Account \(account): \(path) has no \"\(column)\" column, so it is not a cleaned table; "
                + "run stocktake run again to rebuild the latest run."
        }
    }
}
