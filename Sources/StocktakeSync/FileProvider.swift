import Foundation
import StocktakeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `file` provider: a sheet on this machine (or a mounted share), given as a path or a `file://` URL.
///
/// A file has no version of its own: the push reads the file again and compares it byte for byte with what was
/// pulled, so it notices any change since the pull, whatever the file's timestamps say, and replaces it atomically
/// (readers see the old sheet or the new one, never half of it), keeping its permissions. Comparing the bytes at the
/// push costs nothing on a night that pushes nothing, where a fingerprint made at every pull cost a pass over the
/// sheet's bytes that could not be cut short.
///
/// Errors: a missing file is `.notFound` (exit 69); a file that cannot be read (permissions, a folder) is
/// `.refused` with status 0, as there is no server; a file deleted or changed since the pull is
/// `.changedSincePull`; a failed write (full disk, read-only folder) is `.refused` in the push phase (exit 75,
/// the outputs are kept).
public struct FileProvider: SheetProvider {
    /// The file's path, as given (relative paths are relative to the working folder).
    public var path: String
    /// The account the sheet belongs to, for messages.
    public var account: String
    /// The names of the temporary files a push writes; tests replace it to make names collide.
    public var partialNames = PartialFileName()

    /// Makes the provider of `location`: a path, or a `file://` URL (`file:///srv/central.csv`,
    /// `file://localhost/srv/central.csv`, percent-encoded).
    public init(_ location: String, account: String) {
        self.path = Self.path(of: location)
        self.account = account
    }

    public var location: String { path }

    /// Reads the sheet; it has no version (`nil`): the push compares the bytes themselves.
    public func pull() throws(SyncError) -> PulledSheet {
        let reading = read()
        switch reading {
        case .content(let bytes, _):
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return PulledSheet(bytes: bytes, fileName: name, version: nil, location: path)
        case .missing, .unreadable:
            throw Self.error(reading, account: account, path: path, phase: .pull)
        }
    }

    /// The error of a file that failed with errno `code` in `phase` (a rehearsal of the failure gives the same).
    static func error(errno code: Int32, account: String, path: String, phase: SyncPhase) -> SyncError {
        error(failure(code), account: account, path: path, phase: phase)
    }

    private static func error(_ reading: Reading, account: String, path: String, phase: SyncPhase) -> SyncError {
        switch reading {
        case .missing: .notFound(account: account, url: path, detail: "no such file", phase: phase)
        case .unreadable(let reason): .refused(account: account, url: path, status: 0, detail: reason, phase: phase)
        case .content: preconditionFailure("a file that was read is no error")
        }
    }

    /// Replaces the file with `bytes` if its content is still what was pulled, else throws `.changedSincePull`.
    ///
    /// The new file keeps the sheet's permissions and, when this process may give them, its owner and group. Partial
    /// files that earlier pushes killed midway left next to the sheet are removed first (see
    /// `AtomicFile.removeStalePartials(of:)`).
    public func push(_ bytes: [UInt8], over pulled: PulledSheet) throws(SyncError) {
        let current: FileStatus
        switch read() {
        case .content(let content, let status):
            guard content == pulled.bytes else { throw .changedSincePull(account: account, url: path) }
            current = status
        case .missing:
            throw .changedSincePull(account: account, url: path)
        case .unreadable(let reason):
            throw .refused(account: account, url: path, status: 0, detail: reason, phase: .push)
        }
        AtomicFile.removeStalePartials(of: path)
        do throws(StocktakeError) {
            // A shared sheet may be group-writable, or private: the new file gets the same bits and owners.
            let file = try AtomicFileWriter(
                path: path, mode: current.mode, owner: current.owner, group: current.group, names: partialNames)
            try file.write(bytes)
            try file.commit()
        } catch {
            let reason: String
            switch error {
            case .cannotWrite(_, let why): reason = why
            default: reason = error.description
            }
            throw .refused(account: account, url: path, status: 0, detail: reason, phase: .push)
        }
    }

    /// The path a location names: itself, or the decoded path of a `file://` URL (`file://localhost/…` too).
    public static func path(of location: String) -> String {
        guard location.lowercased().hasPrefix("file://") else { return location }
        var rest = Substring(location.dropFirst("file://".count))
        if rest.lowercased().hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
        return rest.removingPercentEncoding ?? String(rest)
    }

    /// The permission bits, owner and group of the sheet.
    private struct FileStatus {
        var mode: mode_t
        var owner: uid_t
        var group: gid_t
    }

    private enum Reading {
        /// The bytes, and the file's permissions and owners.
        case content([UInt8], FileStatus)
        case missing
        case unreadable(String)
    }

    private func read() -> Reading {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return Self.failure(errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return Self.failure(errno) }
        switch FileContents.read(descriptor, expectedSize: Int(status.st_size)) {
        case .success(let bytes):
            return .content(
                bytes, FileStatus(mode: status.st_mode & 0o7777, owner: status.st_uid, group: status.st_gid))
        case .failure(let failure):
            return Self.failure(failure.code)
        }
    }

    private static func failure(_ code: Int32) -> Reading {
        switch code {
        case ENOENT, ENOTDIR: .missing
        case EACCES, EPERM: .unreadable("permission denied")
        case EISDIR: .unreadable("it is a folder, not a file")
        default: .unreadable(String(cString: strerror(code)).lowercased())
        }
    }
}
