/// One input spreadsheet of a reconciliation and the role it plays.
public struct SourceFile: Sendable, Hashable {
    /// Where the file is read from.
    public var path: String
    /// What the file is evidence of.
    public var role: SourceRole
    /// The worksheet read when the file is a workbook: `nil` for its first visible sheet (and for text files).
    public var sheet: String?
    /// The name the clerk sees in messages and `sources` columns: the file name, followed by the sheet in brackets
    /// when one was named (`inventory.xlsx[APs]`).
    public var displayName: String
    /// The encoding the account's `encoding` setting names for the file, used unless the file starts with a
    /// byte-order mark; `nil` (no setting) decides from the text: UTF-8 when all of it is, else Windows-1252.
    public var encoding: TextEncoding?

    public init(
        path: String, role: SourceRole, sheet: String? = nil, displayName: String? = nil,
        encoding: TextEncoding? = nil
    ) {
        self.path = path
        self.role = role
        self.sheet = sheet
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        self.displayName = displayName ?? (sheet.map { "\(fileName)[\($0)]" } ?? fileName)
        self.encoding = encoding
    }
}
