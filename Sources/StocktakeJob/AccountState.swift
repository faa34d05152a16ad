import Foundation
import StocktakeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state folder of one account, `STATE/<account>/`: its lock, its run folders, the `latest` link and the push
/// that waits to be retried.
///
/// ```
/// STATE/<account>/            mode 0700
///     lock                    flock'ed while a run works on the account
///     runs/<run-id>/          one folder per run, the last 30 complete ones (with run.json) kept
///     latest -> runs/<run-id> the newest complete run, swapped atomically
///     pending-push.json       a failed push to retry first
/// ```
/// Folders are created when first needed. Callers hold the account's lock while they change anything.
public struct AccountState: Sendable {
    /// The state root, `STATE`.
    public let root: String
    /// The account this folder belongs to.
    public let account: AccountName
    /// The account's folder, `STATE/<account>`.
    public let path: String

    /// The state folder of `account` under the state root `root` (nothing is created yet).
    public init(root: String, account: AccountName) {
        self.root = root
        self.account = account
        let trimmed = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        path = (trimmed == "/" ? "" : trimmed) + "/" + account.text
    }

    /// The account's lock file.
    public var lockPath: String { path + "/lock" }
    /// The folder holding the run folders.
    public var runsPath: String { path + "/runs" }
    /// The link to the newest complete run.
    public var latestPath: String { path + "/latest" }
    /// The file recording a push that waits to be retried.
    public var pendingPushPath: String { path + "/pending-push.json" }

    // MARK: Lock

    /// Takes the account's lock without waiting, or returns `nil` when another run holds it (the caller skips the
    /// account and says so). The lock lasts until the returned object is released or `unlock()` is called.
    public func lock() throws(AccountStateError) -> AccountLock? {
        try prepareFolder()
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .cannotLock(account: account, path: lockPath, reason: AccountStateError.reason(for: errno))
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(descriptor)
            if code == EWOULDBLOCK { return nil }
            throw .cannotLock(account: account, path: lockPath, reason: AccountStateError.reason(for: code))
        }
        return AccountLock(path: lockPath, descriptor: descriptor)
    }

    // MARK: Runs

    /// Creates the folder of a run that started at `startedAt`, named after that time in UTC, with `-2`, `-3`, …
    /// added when a run of the same second exists.
    public func newRun(startedAt: Date) throws(AccountStateError) -> RunFolder {
        try prepareFolder()
        try makeFolder(runsPath)
        let base = RunFolder.baseID(startedAt: startedAt)
        var sequence = 1
        while true {
            let id = sequence == 1 ? base : base + "-\(sequence)"
            let folder = runsPath + "/" + id
            if mkdir(folder, 0o700) == 0 { return RunFolder(path: folder, id: id) }
            let code = errno
            guard code == EEXIST, sequence < 100_000 else {
                throw .cannotCreate(account: account, path: folder, reason: AccountStateError.reason(for: code))
            }
            sequence += 1
        }
    }

    /// Every run folder, oldest first; entries of `runs/` whose names are not run ids, and links, are left out.
    public func runs() throws(AccountStateError) -> [RunFolder] {
        guard let names = try names(in: runsPath) else { return [] }
        return names.filter { RunFolder.isRunID($0) && Self.isRealFolder(runsPath + "/" + $0) }
            .map { RunFolder(path: runsPath + "/" + $0, id: $0) }
            .sorted()
    }

    /// Points `latest` at `run`, replacing the link atomically: a new link is made under a temporary name and renamed
    /// over `latest`, so a run killed midway leaves the previous `latest` as it was. Temporary links left by killed
    /// runs are removed.
    public func markLatest(_ run: RunFolder) throws(AccountStateError) {
        try prepareFolder()
        removeLeftoverLinks()
        let temporary = latestPath + ".partial-\(getpid())"
        unlink(temporary)
        guard symlink("runs/" + run.id, temporary) == 0 else {
            throw .cannotWrite(account: account, path: latestPath, reason: AccountStateError.reason(for: errno))
        }
        KillPoint.reached(.beforeLatestSwap)
        guard rename(temporary, latestPath) == 0 else {
            let code = errno
            unlink(temporary)
            throw .cannotWrite(account: account, path: latestPath, reason: AccountStateError.reason(for: code))
        }
        syncFolder()
        KillPoint.reached(.afterLatestSwap)
    }

    /// The run `latest` points at, or `nil` when there is no link, it is dangling or it points outside `runs/`.
    public var latest: RunFolder? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(latestPath, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard target.hasPrefix("runs/") else { return nil }
        let id = String(target.dropFirst("runs/".count))
        let folder = runsPath + "/" + id
        guard RunFolder.isRunID(id), Self.isFolder(folder) else { return nil }
        return RunFolder(path: folder, id: id)
    }

    /// Removes the oldest complete run folders so that `count` complete ones remain, never the one `latest` points
    /// at (which is then kept in addition), and returns the removed ids, oldest first.
    ///
    /// Incomplete run folders (see `removeIncompleteRuns()`) neither count nor go: the run being made is one of them.
    @discardableResult
    public func prune(keeping count: Int = 30) throws(AccountStateError) -> [String] {
        let complete = try runs().filter(Self.isComplete)
        let kept = latest?.id
        var removed: [String] = []
        for run in complete.prefix(max(0, complete.count - max(0, count))) where run.id != kept {
            try removeTree(run.path, pruning: true)
            removed.append(run.id)
        }
        return removed
    }

    /// Removes the run folders that runs killed or failed before their end left behind, and returns their ids,
    /// oldest first.
    ///
    /// A run is complete when its folder holds `run.json`, which a run writes last; the other run folders only take
    /// space, on a disk that may already be full. The run `latest` points at is never removed, nor anything in
    /// `runs/` that is not a run folder. Call it under the account's lock, before making the new run's folder.
    @discardableResult
    public func removeIncompleteRuns() throws(AccountStateError) -> [String] {
        let kept = latest?.id
        var removed: [String] = []
        for run in try runs() where run.id != kept && !Self.isComplete(run) {
            try removeTree(run.path)
            removed.append(run.id)
        }
        return removed
    }

    /// The file a run writes last (the last of `ReconcileJob.outputFiles`); a run folder holding it is complete.
    static let completionMark = "run.json"

    /// Whether `run` is complete: its folder holds the regular file `run.json`.
    private static func isComplete(_ run: RunFolder) -> Bool {
        var information = stat()
        return lstat(run.path(of: completionMark), &information) == 0 && (information.st_mode & S_IFMT) == S_IFREG
    }

    // MARK: Pending push

    /// Records a push that failed, replacing any earlier record; the file is written atomically.
    public func recordPendingPush(_ pending: PendingPush) throws(AccountStateError) {
        try prepareFolder()
        try encode(pending, to: pendingPushPath)
    }

    /// The push that waits to be retried, or `nil` when there is none or its file cannot be read or understood (a
    /// broken record must not stop the run; the next failure writes a new one).
    public var pendingPush: PendingPush? { decoded(pendingPushPath) }

    /// Forgets the pending push after it succeeded; nothing happens when there is none.
    public func clearPendingPush() throws(AccountStateError) {
        guard unlink(pendingPushPath) == 0 || errno == ENOENT else {
            throw .cannotRemove(account: account, path: pendingPushPath, reason: AccountStateError.reason(for: errno))
        }
    }

    // MARK: Helpers

    /// Creates the state root and the account folder (mode 0700) when missing.
    func prepareFolder() throws(AccountStateError) {
        var current = root.hasPrefix("/") ? "" : "."
        for component in root.split(separator: "/") {
            current += "/" + component
            guard mkdir(current, 0o755) == 0 || errno == EEXIST else {
                throw .cannotCreate(account: account, path: root, reason: AccountStateError.reason(for: errno))
            }
        }
        try makeFolder(path)
    }

    /// Creates one folder with mode 0700 unless a folder is already there.
    private func makeFolder(_ folder: String) throws(AccountStateError) {
        if mkdir(folder, 0o700) == 0 { return }
        let code = errno
        if code == EEXIST && Self.isFolder(folder) { return }
        let reason = code == EEXIST ? "a file is in the way" : AccountStateError.reason(for: code)
        throw .cannotCreate(account: account, path: folder, reason: reason)
    }

    /// Removes `latest.partial-*` links that runs killed between making and renaming them left behind.
    private func removeLeftoverLinks() {
        guard let names = try? names(in: path) else { return }
        for name in names where name.hasPrefix("latest.partial-") {
            var information = stat()
            let entry = path + "/" + name
            if lstat(entry, &information) == 0 && (information.st_mode & S_IFMT) == S_IFLNK { unlink(entry) }
        }
    }

    /// Flushes the account folder's entries so the renamed `latest` survives a power cut.
    private func syncFolder() {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Whether `path` is a folder itself, not a link to one.
    private static func isRealFolder(_ path: String) -> Bool {
        var information = stat()
        return lstat(path, &information) == 0 && (information.st_mode & S_IFMT) == S_IFDIR
    }

    private static func isFolder(_ path: String) -> Bool {
        var information = stat()
        return stat(path, &information) == 0 && (information.st_mode & S_IFMT) == S_IFDIR
    }

    /// The names in `folder` (without `.` and `..`), or `nil` when it does not exist.
    private func names(in folder: String) throws(AccountStateError) -> [String]? {
        guard let stream = opendir(folder) else {
            let code = errno
            if code == ENOENT { return nil }
            throw .cannotRead(account: account, path: folder, reason: AccountStateError.reason(for: code))
        }
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                let code = errno
                if code == 0 { return names }
                throw .cannotRead(account: account, path: folder, reason: AccountStateError.reason(for: code))
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
                String(cString: UnsafeRawPointer(field).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Removes `entry` and, when it is a folder (not a link to one), everything in it. `pruning` marks the removal
    /// of an old complete run, where the kill matrix stops a run halfway (`KillPoint.midPrune`).
    private func removeTree(_ entry: String, pruning: Bool = false) throws(AccountStateError) {
        var information = stat()
        if lstat(entry, &information) == 0 && (information.st_mode & S_IFMT) == S_IFDIR {
            for name in try names(in: entry) ?? [] { try removeTree(entry + "/" + name, pruning: pruning) }
            if pruning { KillPoint.reached(.midPrune) }
            guard rmdir(entry) == 0 || errno == ENOENT else {
                throw .cannotRemove(account: account, path: entry, reason: AccountStateError.reason(for: errno))
            }
        } else if unlink(entry) != 0 && errno != ENOENT {
            throw .cannotRemove(account: account, path: entry, reason: AccountStateError.reason(for: errno))
        }
    }
}
