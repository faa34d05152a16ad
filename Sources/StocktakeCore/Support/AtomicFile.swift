#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes files so that readers only ever see the old file or the complete new one, never half of it.
///
/// The bytes go to a temporary file in the same folder (created exclusively under a random name, see
/// `AtomicFileWriter`), are flushed to disk with `fsync`, and the temporary file is then renamed over the target and
/// the folder flushed. A full disk or a read-only folder leaves the old file untouched.
public enum AtomicFile {
    /// Replaces the file at `path` with `bytes`; `mode` gives it exact permission bits (else 0644 less the umask).
    /// With `synchronizingFolder` false the folder is left for the caller to flush (see `AtomicFileWriter.commit`);
    /// with `keepingCached` the file's pages stay in the page cache for a reader that follows at once.
    public static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t? = nil, synchronizingFolder: Bool = true,
        keepingCached: Bool = false
    ) throws(StocktakeError) {
        let file = try AtomicFileWriter(path: path, mode: mode, keepingCached: keepingCached)
        try file.write(bytes)
        try file.commit(synchronizingFolder: synchronizingFolder)
    }

    /// Replaces the file at `path` with the UTF-8 text; `mode` gives it exact permission bits (else 0644 less the
    /// umask). With `synchronizingFolder` false the folder is left for the caller to flush.
    public static func write(
        _ text: String, to path: String, mode: mode_t? = nil, synchronizingFolder: Bool = true
    ) throws(StocktakeError) {
        try write(Array(text.utf8), to: path, mode: mode, synchronizingFolder: synchronizingFolder)
    }

    /// Removes the partial files of `path` that writers killed before their commit left in its folder, and returns
    /// their names.
    ///
    /// Only files that are surely such leftovers go: regular files (links are never followed nor removed) named like
    /// a partial file of `path` (`PartialFileName`), owned by this process's effective user, whose writer process is
    /// no longer running. Anything else stays, and a folder that cannot be read is left as it is (the write that
    /// follows reports the problem).
    @discardableResult
    public static func removeStalePartials(of path: String) -> [String] {
        let (prefix, name) = split(path)
        guard let stream = opendir(prefix.isEmpty ? "." : prefix) else { return [] }
        defer { closedir(stream) }
        let folder = dirfd(stream)
        var candidates: [(name: String, writer: pid_t)] = []
        while let entry = readdir(stream) {
            let entryName = withUnsafePointer(to: &entry.pointee.d_name) { field in
                String(cString: UnsafeRawPointer(field).assumingMemoryBound(to: CChar.self))
            }
            if let writer = PartialFileName.writer(of: entryName, for: name) { candidates.append((entryName, writer)) }
        }
        var removed: [String] = []
        for candidate in candidates {
            var status = stat()
            guard fstatat(folder, candidate.name, &status, AT_SYMLINK_NOFOLLOW) == 0,
                status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(), !isRunning(candidate.writer)
            else { continue }
            if unlinkat(folder, candidate.name, 0) == 0 { removed.append(candidate.name) }
        }
        return removed
    }

    /// Creates `path` and its missing parents.
    public static func makeDirectory(_ path: String) throws(StocktakeError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw failure(path) }
        }
    }

    /// Whether the process `pid` exists (one of another user counts too).
    static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// The part of `path` up to and including its last `/` (empty when there is none), and the file's name.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    /// Flushes the entries of `folder` so that a rename in it survives a power cut; file systems that cannot do it
    /// are left as they are (the data itself is already on disk).
    static func synchronizeFolder(_ folder: String) {
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(descriptor, bytes, count)
        #else
            Darwin.write(descriptor, bytes, count)
        #endif
    }

    static func failure(_ path: String) -> StocktakeError {
        let code = errno
        let reason: String
        switch code {
        case ENOSPC, EDQUOT: reason = "the disk is full"
        case EROFS: reason = "the file system is read-only"
        case EACCES, EPERM: reason = "permission denied"
        case ENOENT: reason = "the folder does not exist"
        default: reason = String(cString: strerror(code)).lowercased()
        }
        return .cannotWrite(path: path, reason: reason)
    }
}
