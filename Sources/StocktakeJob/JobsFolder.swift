import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The jobs folder, `Jobs/`: one folder per account, and nothing that can lead a run outside it.
///
/// An account is named by its folder's name, never by a path, so `--account ../outside/x` or `/etc` names no
/// account; and an account folder that is a symbolic link is followed only when it stays inside the jobs folder
/// (a link planted in a shared `Jobs/` must not make the run read, lock or push for a folder elsewhere).
public enum JobsFolder {
    /// Why `name` cannot be run as an account of `jobs`, or `nil` when it can.
    public static func problem(account name: String, in jobs: String) -> ConfigurationProblem? {
        if let problem = AccountName.problem(with: name) {
            return ConfigurationProblem(
                account: name, key: "", problem: "cannot be read: the account name \(problem)",
                fix: "Name an account by its folder's name under \(jobs).")
        }
        let folder = (jobs as NSString).appendingPathComponent(name)
        var information = stat()
        guard lstat(folder, &information) == 0, (information.st_mode & S_IFMT) == S_IFLNK else { return nil }
        guard let target = realPath(folder), let root = realPath(jobs) else { return nil }
        guard !target.hasPrefix(root == "/" ? "/" : root + "/") else { return nil }
        return ConfigurationProblem(
            account: name, key: "",
            problem: "is in \(folder), a link to \(target), outside the jobs folder \(jobs), so it is not run",
            fix: "Move the account's folder into \(jobs) instead of linking to it.")
    }

    /// The canonical absolute path of `path`, links resolved, or `nil` when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
