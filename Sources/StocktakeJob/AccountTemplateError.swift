import StocktakeCore

/// Why `stocktake init` could not write a new account folder.
public enum AccountTemplateError: UserFacingError, Equatable {
    /// The name cannot be an account folder's name; `problem` says why (from `AccountName.problem(with:)`).
    case invalidName(name: String, problem: String)
    /// The account folder already exists; init never overwrites an account.
    case exists(folder: String)
    /// A file or folder could not be created.
    case cannotWrite(path: String, reason: String)

    /// 64 for a bad name (the command line is wrong), 73 when the folder exists or cannot be written.
    public var exitStatus: ExitStatus {
        switch self {
        case .invalidName: .usage
        case .exists, .cannotWrite: .cannotCreate
        }
    }

    public var description: String {
        switch self {
        case .invalidName(let name, let problem):
            return "init: \"\(name)\" cannot be an account name: it \(problem). "
                + "Use letters, digits, '-', '_' and '.', such as acme-clinic."
        case .exists(let folder):
            return "init: \(folder) already exists, and init never overwrites an account. "
                + "Choose another name, or edit \(folder)/account.json."
        case .cannotWrite(let path, let reason):
            return "init: cannot create \(path): \(reason). Check that the jobs folder is writable and the disk is "
                + "not full."
        }
    }
}
