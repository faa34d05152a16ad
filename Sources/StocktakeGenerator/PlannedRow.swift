/// One data row of a source file, with its cells already written as they will appear.
struct PlannedRow: Sendable {
    /// The text of each column; absent columns are empty cells.
    var cells: [SourceColumn: String]
    /// Where the row goes in its file: rows are sorted by this key.
    var order: SortKey
    /// An identifier for expectations that cite this row's position, or `nil`.
    var marker: Int?

    /// Rows sort by group (such as a building), then by a random rank within the group.
    struct SortKey: Sendable, Hashable, Comparable {
        var group: Int
        var rank: UInt64

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            (lhs.group, lhs.rank) < (rhs.group, rhs.rank)
        }
    }
}
