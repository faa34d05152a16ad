import Foundation
import StocktakeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C `struct group` of `getgrnam_r`, named apart from the `group` property below.
private typealias GroupEntry = group

/// Who may read an account's run folders and reports besides their owner: one group, with folders 0750 and files
/// 0640, so that the clerks of that group open `report.html` without being root, and nobody else can.
///
/// The group is the account's `rules.reportGroup`, or else the group of the state folder: giving the state folder to
/// the clerks' group (`chgrp clerks state`) shares every account's reports with them.
public struct ReportAccess: Sendable, Hashable {
    /// The group's id.
    public var group: gid_t
    /// The group's name for messages (its id when it has no name).
    public var groupName: String

    /// The mode of the account folder, `runs/` and every run folder.
    public static let folderMode: mode_t = 0o750
    /// The mode of every file in a run folder.
    public static let fileMode: mode_t = 0o640

    public init(group: gid_t, groupName: String) {
        self.group = group
        self.groupName = groupName
    }

    /// The access for an account: the group `reportGroup` names, else the group of the state folder `stateRoot`;
    /// `nil` when the group is unknown or the state folder cannot be read.
    public init?(reportGroup: String?, stateRoot: String) {
        if let reportGroup {
            guard let id = Self.groupID(named: reportGroup) else { return nil }
            self.init(group: id, groupName: reportGroup)
        } else {
            var information = stat()
            guard stat(stateRoot, &information) == 0 else { return nil }
            self.init(group: information.st_gid, groupName: Self.name(of: information.st_gid))
        }
    }

    /// The id of the group called `name`, or `nil` when this machine has none of that name.
    public static func groupID(named name: String) -> gid_t? {
        guard !name.isEmpty else { return nil }
        var entry = GroupEntry()
        var result: UnsafeMutablePointer<GroupEntry>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }

    /// The name of group `id`, or its number when it has none.
    static func name(of id: gid_t) -> String {
        var entry = GroupEntry()
        var result: UnsafeMutablePointer<GroupEntry>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrgid_r(id, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.gr_name
        else { return String(id) }
        return String(cString: name)
    }

    /// Gives the account folder, `runs/`, `run`'s folder and everything in it to the group: folders 0750, files 0640.
    /// Links are left as they are and never followed; the lock and the records of the account folder keep their modes.
    public func share(_ run: RunFolder, of state: AccountState) throws(AccountStateError) {
        try shareTree(run.path, state)
        try apply(state.runsPath, mode: Self.folderMode, state)
        try apply(state.path, mode: Self.folderMode, state)
    }

    private func shareTree(_ path: String, _ state: AccountState) throws(AccountStateError) {
        var information = stat()
        guard lstat(path, &information) == 0 else { return }
        switch information.st_mode & S_IFMT {
        case S_IFDIR:
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            for name in names { try shareTree(path + "/" + name, state) }
            try apply(path, mode: Self.folderMode, state)
        case S_IFREG:
            try apply(path, mode: Self.fileMode, state)
        default:
            return
        }
    }

    private func apply(_ path: String, mode: mode_t, _ state: AccountState) throws(AccountStateError) {
        guard lchown(path, uid_t.max, group) == 0, chmod(path, mode) == 0 else {
            throw .cannotShare(
                account: state.account, path: path, group: groupName, reason: AccountStateError.reason(for: errno))
        }
    }
}
