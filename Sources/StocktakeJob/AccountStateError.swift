import StocktakeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why an account's state folder (`STATE/<account>/`) could not be used; each description is one sentence that
/// names the account, the path and what to do.
public enum AccountStateError: Error, Equatable, CustomStringConvertible {
    /// A folder of the state tree (the state root, the account folder, `runs/` or a run folder) cannot be created.
    case cannotCreate(account: AccountName, path: String, reason: String)
    /// The account's lock file cannot be opened or locked (for a reason other than another run holding it).
    case cannotLock(account: AccountName, path: String, reason: String)
    /// A file or link of the state folder (`latest`, `pending-push.json`) cannot be written.
    case cannotWrite(account: AccountName, path: String, reason: String)
    /// An old run folder or a file of the state folder cannot be removed.
    case cannotRemove(account: AccountName, path: String, reason: String)
    /// A folder of the state tree cannot be listed.
    case cannotRead(account: AccountName, path: String, reason: String)
    /// A run folder or one of its files cannot be given to the group that reads the reports.
    case cannotShare(account: AccountName, path: String, group: String, reason: String)

    /// The exit status a command ends with when this stops it.
    public var exitStatus: ExitStatus {
        switch self {
        case .cannotCreate, .cannotLock, .cannotWrite: .cannotCreate
        case .cannotRemove, .cannotRead: .ioError
        case .cannotShare: .noPermission
        }
    }

    public var description: String {
        switch self {
        case .cannotCreate(let account, let path, let reason):
            return "Account \(account): cannot create the folder \(path) (\(reason)); "
                + "check that the state folder is a writable folder, or choose another one with --state."
        case .cannotLock(let account, let path, let reason):
            return "Account \(account): cannot lock \(path) (\(reason)); "
                + "check that the state folder is writable and on a file system that supports flock."
        case .cannotWrite(let account, let path, let reason):
            return "Account \(account): cannot write \(path) (\(reason)); "
                + "check that the state folder is writable and the disk is not full."
        case .cannotRemove(let account, let path, let reason):
            return "Account \(account): cannot remove \(path) (\(reason)); "
                + "check the permissions of the state folder, or remove it by hand."
        case .cannotRead(let account, let path, let reason):
            return "Account \(account): cannot read the folder \(path) (\(reason)); "
                + "check the permissions of the state folder."
        case .cannotShare(let account, let path, let group, let reason):
            return "Account \(account): cannot give \(path) to the group \(group) (\(reason)); run stocktake as root "
                + "or as a member of \(group), or name another group with rules.reportGroup in account.json."
        }
    }

    /// The plain-words reason for a failed system call's `errno`.
    static func reason(for code: Int32) -> String {
        switch code {
        case ENOSPC, EDQUOT: "the disk is full"
        case EROFS: "the file system is read-only"
        case EACCES, EPERM: "permission denied"
        case ENOENT: "the folder does not exist"
        case ENOTDIR: "a file is where a folder should be"
        default: String(cString: strerror(code)).lowercased()
        }
    }

    /// The reason inside an error of `AtomicFile`, which already words it for people.
    static func reason(of error: StocktakeError) -> String {
        if case .cannotWrite(_, let reason) = error { return reason }
        return error.description
    }
}
