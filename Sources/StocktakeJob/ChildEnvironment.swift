import Foundation

/// The environment an account's child process starts with: the parent's, without any account's token, plus this
/// account's own token variable.
///
/// One process per account keeps one company's runaway file from taking the others down; giving each process only
/// its own token keeps a company's token out of every other company's process, even one that misbehaves.
public struct ChildEnvironment: Sendable {
    /// Every variable that may hold a token: each `auth.tokenVariable` of any account, `STOCKTAKE_TOKEN` and any
    /// `STOCKTAKE_TOKEN_…`, and every variable of the `--env-file`.
    public var tokenVariables: Set<String>
    /// The variables of `--env-file`, which are never in the parent's own environment.
    public var fileVariables: [String: String]
    /// The threads each child may use (`STOCKTAKE_THREADS`), so that children running side by side share the
    /// cores instead of each taking all of them; `nil` leaves it to the child. An admin's own setting wins.
    public var threads: Int?

    /// The token variables named by the accounts under `jobs`, plus the variables of `fileVariables`.
    public init(jobs: String, fileVariables: [String: String]) {
        self.init(tokenVariables: Self.namedTokenVariables(jobs: jobs), fileVariables: fileVariables)
    }

    public init(tokenVariables: Set<String>, fileVariables: [String: String]) {
        self.tokenVariables = tokenVariables.union(["STOCKTAKE_TOKEN"]).union(fileVariables.keys)
        self.fileVariables = fileVariables
    }

    /// The child's environment: `base` (the parent's) without token variables, plus `own` (the account's
    /// `auth.tokenVariable`) taken from the environment file, or else from `base`.
    public func environment(base: [String: String], own: String?) -> [String: String] {
        var result = base.filter { name, _ in !isTokenVariable(name) }
        if let own, let value = fileVariables[own] ?? base[own] {
            result[own] = value
        }
        if let threads, result["STOCKTAKE_THREADS"] == nil { result["STOCKTAKE_THREADS"] = String(threads) }
        return result
    }

    func isTokenVariable(_ name: String) -> Bool {
        tokenVariables.contains(name) || name.hasPrefix("STOCKTAKE_TOKEN_")
    }

    /// Every `auth.tokenVariable` in the `account.json` files under `jobs`, whichever shard or selection runs
    /// tonight, read leniently: an account whose configuration is otherwise broken still keeps its token out of the
    /// others' processes.
    static func namedTokenVariables(jobs: String) -> Set<String> {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: jobs)) ?? []
        var names: Set<String> = []
        for folder in folders where !folder.hasPrefix(".") {
            let path = (jobs as NSString).appendingPathComponent(folder) + "/account.json"
            guard let data = FileManager.default.contents(atPath: path),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let auth = object["auth"] as? [String: Any], let name = auth["tokenVariable"] as? String
            else { continue }
            names.insert(name)
        }
        return names
    }
}
