/// The `sources` cells of `cleaned.csv` made so far, by the set of files they name (one bit per file, in source
/// order): assets seen in the same files share one string, found by an integer lookup instead of a `Dictionary`'s
/// hashing.
struct SourceLists {
    private var indexes = IntegerTable(capacity: 64)
    private var lists: [String] = []

    /// The list of the files in `files`, made by `make` the first time such a set is asked for. `files` names at
    /// least one file (an asset has a row), so its complement, the table's key, is never `UInt64.max`, which the
    /// table keeps for empty slots: all 64 files may be named.
    mutating func list(of files: UInt64, _ make: () -> String) -> String {
        precondition(files != 0, "a list of sources names at least one file")
        if let index = indexes[~files] { return lists[Int(index)] }
        let list = make()
        indexes.set(Int32(lists.count), for: ~files)
        lists.append(list)
        return list
    }
}
