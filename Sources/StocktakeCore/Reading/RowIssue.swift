/// A problem with one cell or row of a source file, found while reading it.
///
/// Issues become `INVALID_VALUE` or `UNKNOWN_BUILDING` discrepancies once the row's asset is known.
public struct RowIssue: Sendable, Hashable {
    /// What kind of problem it is.
    public enum Kind: Sendable, Hashable {
        /// The cell cannot be normalized into its field.
        case invalidValue
        /// The building is not in the account's buildings table.
        case unknownBuilding
        /// The row has more or fewer cells than the header.
        case raggedRow
        /// The row carries no VT tag, CNS number, serial number or MAC address, so it cannot be matched.
        case noIdentifier
        /// The CSV text of the cell is damaged (a stray quote, bytes that are not UTF-8); it is kept as read.
        case damagedText
    }

    public var kind: Kind
    /// The 1-based data row.
    public var row: Int
    /// The 1-based physical line the problem is on.
    public var line: Int
    /// The index of the row's record in its source, when the row was kept.
    public var recordIndex: Int?
    /// The canonical field of the cell, when it is mapped.
    public var field: CanonicalField?
    /// The header of the column, when the problem is in one cell.
    public var column: String?
    /// The cell as read, trimmed.
    public var value: String
    /// Why it is a problem, as a clause that follows the value ("has 11 hex digits; a MAC address has 12").
    public var reason: String
}
