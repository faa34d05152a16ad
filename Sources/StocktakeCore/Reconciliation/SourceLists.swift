/// The `sources` cells of `cleaned.csv` made so far, by the set of files they name (one bit per file, in source
/// order): assets seen in the same files share one string, found by an integer lookup instead of a `Dictionary`'s
/// hashing.
struct SourceLists {
    private var indexes = IntegerTable(capacity: 64)
    private var lists: [String] = []

    /// The list of the files in `files`, made by `make` the first time such a set is asked for. `files` is not
    /// `UInt64.max` (at most 63 files are kept here).
    mutating func list(of files: UInt64, _ make: () -> String) -> String {
        if let index = indexes[files] { return lists[Int(index)] }
        let list = make()
        indexes.set(Int32(lists.count), for: files)
        lists.append(list)
        return list
    }
}
