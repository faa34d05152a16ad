import StocktakeCore

/// Why `stocktake report` found no report to show; each description is a sentence that says what to do.
public enum ReportLocatorError: UserFacingError, Equatable {
    /// The name given with `--account` cannot be an account folder's name; `problem` says why.
    case invalidAccountName(name: String, problem: String)
    /// No folder of that name is in the jobs folder, nor in the state folder; `known` are the accounts there are.
    case unknownAccount(name: String, jobs: String, known: [String])
    /// The account has no run in the state folder `state` yet.
    case noRun(account: String, state: String)
    /// The run id given with `--run` is not a run of the account; `recent` are its newest runs, newest first.
    case unknownRun(account: String, run: String, recent: [String])
    /// The run's folder holds no `report.html`: the run stopped before writing it.
    case noReport(account: String, run: String, path: String)
    /// The state folder cannot be read.
    case unreadableState(AccountStateError)
    /// `--open` was given, but `xdg-open` is not installed; the report is at `path`.
    case noOpener(path: String)
    /// `xdg-open` ran but ended with `status`.
    case openFailed(path: String, status: Int32)

    public var exitStatus: ExitStatus {
        switch self {
        case .invalidAccountName, .unknownAccount, .unknownRun: .usage
        case .noRun, .noReport: .noInput
        case .unreadableState(let error): error.exitStatus
        case .noOpener, .openFailed: .unavailable
        }
    }

    public var description: String {
        switch self {
        case .invalidAccountName(let name, let problem):
            return "\"\(name)\" is not an account name: it \(problem). Give the name of a folder under Jobs/."
        case .unknownAccount(let name, let jobs, let known):
            let list = known.isEmpty ? "there are none yet" : "the accounts are " + known.joined(separator: ", ")
            return "There is no account \(name) in \(jobs) (\(list)); give an account folder's name with --account, "
                + "or the jobs folder with --jobs."
        case .noRun(let account, let state):
            return "Account \(account) has no run yet in \(state); run stocktake run --account \(account) first, "
                + "or give the state folder with --state."
        case .unknownRun(let account, let run, let recent):
            let hint = recent.isEmpty ? "" : "; its newest runs are " + recent.joined(separator: ", ")
            return "\(run) is not a run of account \(account)\(hint). Give one of them with --run, or leave --run "
                + "out for the latest run."
        case .noReport(let account, let run, let path):
            return "Account \(account): run \(run) has no report.html (\(path) is missing: the run stopped before "
                + "writing it); run stocktake run --account \(account) again, or give another run with --run."
        case .unreadableState(let error):
            return error.description
        case .noOpener(let path):
            return "xdg-open is not installed, so the report cannot be opened here; open \(path) in a browser "
                + "(file://\(path)), or install xdg-utils."
        case .openFailed(let path, let status):
            return "xdg-open could not open \(path) (it ended with status \(status)); open the file in a browser "
                + "(file://\(path))."
        }
    }
}
