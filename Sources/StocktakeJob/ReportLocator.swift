import Foundation
import StocktakeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `stocktake report`: finds the `report.html` of an account's latest run (or of a given run) in the state folder,
/// and opens it with `xdg-open` when asked.
public struct ReportLocator: Sendable {
    /// The folder of account folders (`Jobs`).
    public var jobs: String
    /// The state folder (`state`), holding each account's runs and its `latest` link.
    public var state: String

    public init(jobs: String, state: String) {
        self.jobs = jobs
        self.state = state
    }

    /// The absolute path of the report of `account`'s run `run`, or of its latest run when `run` is `nil`.
    ///
    /// An account is known when the jobs folder or the state folder has a folder of its name (an account removed
    /// from the jobs folder keeps its old runs).
    public func report(account: String, run: String? = nil) throws(ReportLocatorError) -> String {
        guard let name = AccountName(account) else {
            throw .invalidAccountName(name: account, problem: AccountName.problem(with: account) ?? "is not allowed")
        }
        let accountState = AccountState(root: state, account: name)
        guard Self.isFolder((jobs as NSString).appendingPathComponent(account)) || Self.isFolder(accountState.path)
        else {
            throw .unknownAccount(name: account, jobs: jobs, known: Self.accountNames(in: jobs))
        }
        let folder: RunFolder
        if let run {
            let runs: [RunFolder]
            do throws(AccountStateError) {
                runs = try accountState.runs()
            } catch {
                throw .unreadableState(error)
            }
            guard !runs.isEmpty else { throw .noRun(account: account, state: state) }
            guard let found = runs.first(where: { $0.id == run }) else {
                throw .unknownRun(account: account, run: run, recent: runs.suffix(3).reversed().map(\.id))
            }
            folder = found
        } else {
            guard let latest = accountState.latest else { throw .noRun(account: account, state: state) }
            folder = latest
        }
        var path = folder.path(of: "report.html")
        if !path.hasPrefix("/") {
            // Absolute, so that it can be pasted into a browser or handed to xdg-open from anywhere.
            path =
                ((FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path) as NSString)
                .standardizingPath
        }
        guard access(path, F_OK) == 0 else { throw .noReport(account: account, run: folder.id, path: path) }
        return path
    }

    /// Opens the report at `path` with `xdg-open`, found in `searchPath` (the `PATH` list of folders), and waits
    /// for it to hand the file over.
    public static func open(_ path: String, searchPath: String) throws(ReportLocatorError) {
        let candidates = searchPath.split(separator: ":").map { String($0) + "/xdg-open" }
        guard let opener = candidates.first(where: { access($0, X_OK) == 0 && !isFolder($0) }) else {
            throw .noOpener(path: path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [path]
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .openFailed(path: path, status: 127)
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw .openFailed(path: path, status: process.terminationStatus) }
    }

    /// The names of the account folders in `jobs`, sorted; empty when it cannot be listed.
    static func accountNames(in jobs: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: jobs)) ?? []
        return names.filter { AccountName($0) != nil && isFolder((jobs as NSString).appendingPathComponent($0)) }
            .sorted()
    }

    private static func isFolder(_ path: String) -> Bool {
        var information = stat()
        return stat(path, &information) == 0 && (information.st_mode & S_IFMT) == S_IFDIR
    }
}
