/// One source an account names: a file, a folder of files, or an address, with how to read what it holds.
///
/// Most entries are a bare location, so an entry can be written as a string literal (`"scans/"`); a workbook whose
/// data is not on its first sheet names the sheet.
public struct SourceEntry: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// A path, a folder (its spreadsheets are all read), or an address.
    public var location: String
    /// The sheets read from each workbook.
    public var sheets: SheetSelection
    /// The encoding the account names for its text files (`nil`: decided from each file's bytes).
    public var encoding: TextEncoding?

    public init(_ location: String, sheets: SheetSelection = .first, encoding: TextEncoding? = nil) {
        self.location = location
        self.sheets = sheets
        self.encoding = encoding
    }

    public init(stringLiteral location: String) {
        self.init(location)
    }

    /// The same entry at another location, as when an address was pulled into a local file.
    public func relocated(to location: String) -> SourceEntry {
        var entry = self
        entry.location = location
        return entry
    }

    public var description: String { location }
}
