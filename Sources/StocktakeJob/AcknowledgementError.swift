import StocktakeCore

/// Why `stocktake ack` recorded nothing; each description is a sentence that says what to do.
public enum AcknowledgementError: UserFacingError, Equatable {
    /// The name given with `--account` cannot be an account folder's name; `problem` says why.
    case invalidAccountName(name: String, problem: String)
    /// The account's `account.json` is wrong.
    case configuration(ConfigurationProblem)
    /// The account keeps its acknowledgements in a sheet on a server, which stocktake does not write.
    case remoteSheet(account: String, location: String)
    /// The account has no `latest` run in the state folder `state`.
    case noRun(account: String, state: String)
    /// The latest run was made before findings had ids.
    case noLedger(account: String, run: String)
    /// The latest run's ledger cannot be read.
    case unreadableLedger(account: String, error: StocktakeError)
    /// A text that is not a finding id.
    case notAnID(text: String)
    /// An id that is not a finding of the latest run (or no longer stands), with the closest ids that are.
    case notOpen(account: String, id: FindingID, run: String, resolvedOn: InventoryDate?, closest: [FindingID])
    /// The acknowledgements file cannot be written.
    case cannotWrite(account: String, error: StocktakeError)

    public var exitStatus: ExitStatus {
        switch self {
        case .invalidAccountName, .notAnID, .notOpen: .usage
        case .configuration, .remoteSheet: .configuration
        case .noRun, .noLedger: .noInput
        case .unreadableLedger(_, let error), .cannotWrite(_, let error): error.exitStatus
        }
    }

    public var description: String {
        switch self {
        case .invalidAccountName(let name, let problem):
            return "\"\(name)\" is not an account name: it \(problem). Give the name of a folder under Jobs/."
        case .configuration(let problem):
            return problem.description
        case .remoteSheet(let account, let location):
            return "Account \(account) keeps its acknowledgements in the sheet \(location) (\"acknowledged\" in "
                + "account.json); add a row there with the columns id,note,until,by."
        case .noRun(let account, let state):
            return "Account \(account) has no run yet in \(state); run stocktake run first, "
                + "or give the state folder with --state."
        case .noLedger(let account, let run):
            return "Account \(account): its latest run \(run) has no ledger.csv (it ran before findings had ids); "
                + "run stocktake run --account \(account) again first."
        case .unreadableLedger(let account, let error):
            return "Account \(account): \(error)"
        case .notAnID(let text):
            return "\"\(text)\" is not a finding id; ids look like F7K2-Q9MD (the id column of discrepancies.csv)."
        case .notOpen(let account, let id, let run, let resolvedOn, let closest):
            let why =
                resolvedOn.map { "is no longer open in account \(account): it was resolved on \($0)" }
                ?? "is not a finding of account \(account)'s latest run \(run)"
            let hint =
                closest.isEmpty
                ? "" : "; the closest open ids are \(closest.map(\.description).joined(separator: ", "))"
            return "\(id) \(why)\(hint)."
        case .cannotWrite(let account, let error):
            return "Account \(account): \(error)"
        }
    }
}
