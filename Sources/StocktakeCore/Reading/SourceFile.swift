/// One input spreadsheet of a reconciliation and the role it plays.
public struct SourceFile: Sendable, Hashable {
    /// Where the file is read from.
    public var path: String
    /// What the file is evidence of.
    public var role: SourceRole
    /// The name the clerk sees in messages and `sources` columns, usually the file name.
    public var displayName: String

    public init(path: String, role: SourceRole, displayName: String? = nil) {
        self.path = path
        self.role = role
        self.displayName = displayName ?? path.split(separator: "/").last.map(String.init) ?? path
    }
}
