import Foundation

/// The folders and files an account's local sources may be read from, once every symbolic link is followed
/// (`rules.allowedRoots`).
///
/// A clerk can drop a symbolic link into a sources folder; followed blindly, it would read (and copy into the
/// outputs) any file the job can read, such as another company's sheet or a system file. Each local source, each
/// file listed in a source folder and the buildings table is resolved to its real path, which must be a root or
/// lie in one; otherwise the run is refused before anything is read.
public struct AllowedRoots: Sendable, Equatable {
    /// The roots as given (absolute paths), for messages.
    public let paths: [String]
    /// The roots with every symbolic link followed, where they exist.
    private let realPaths: [String]

    /// Roots at `paths` (absolute), every link in them followed, and at the paths `named` (absolute) as they are
    /// named: their folders' links are followed, but not a link at the named path itself. A configuration's own
    /// paths are roots of the second kind, so that a link planted in place of a named file or folder does not make
    /// wherever it leads a root.
    public init(_ paths: [String], named: [String] = []) {
        self.paths = paths + named
        realPaths =
            paths.map { Self.realPath($0) ?? ($0 as NSString).standardizingPath }
            + named.map { path in
                // Lexically: NSString.standardizingPath would follow the very link that must not be.
                let standard = URL(fileURLWithPath: path).absoluteURL.standardized
                let parent = standard.deletingLastPathComponent().path
                guard let real = Self.realPath(parent) else { return standard.path }
                return (real as NSString).appendingPathComponent(standard.lastPathComponent)
            }
    }

    /// Throws `StocktakeError.badData` for the first local source of `request` (the central sheet, sightings,
    /// registers, the files of their folders, the buildings table, the acknowledgements) whose real path is outside
    /// every root; paths that do not exist (addresses, files still to be made) are left to the reader.
    public func check(_ request: ReconcileRequest) throws(StocktakeError) {
        var paths = [request.central] + (request.sightings + request.registers).map(\.location)
        if let buildings = request.buildings { paths.append(buildings) }
        if let acknowledgements = request.acknowledgements { paths.append(acknowledgements) }
        for path in paths { try check(source: path) }
    }

    /// Throws when the local source at `path`, or a file its folder lists, leads outside every root.
    public func check(source path: String) throws(StocktakeError) {
        try check(path)
        guard ReconcileJob.isDirectory(path) else { return }
        for file in try ReconcileJob.expand(path) { try check(file) }
    }

    /// Throws when `path` exists and its real path is outside every root.
    public func check(_ path: String) throws(StocktakeError) {
        guard let real = Self.realPath(path), !contains(real) else { return }
        let roots = paths.joined(separator: ", ")
        throw .badData(
            path: path,
            reason: "it leads to \(real), outside the folders the account may read (rules.allowedRoots: \(roots)), "
                + "so it is not read. Replace the link with the file itself, or add its folder to rules.allowedRoots "
                + "in the account's account.json.")
    }

    /// Whether the real path `real` is a root or lies in one.
    func contains(_ real: String) -> Bool {
        realPaths.contains { root in
            real == root || real.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }
    }

    /// `path` with every symbolic link, `.` and `..` resolved; `nil` when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
