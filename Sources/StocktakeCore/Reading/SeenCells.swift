/// The free-text cells of one column seen so far, by their bytes as read, each with what it became: the id of its
/// normalized text in `SharedTexts`, or `empty`.
///
/// A column of free text repeats a few spellings (every access point of a model has the same description, a building
/// code is typed the same way on every row), so a cell seen before costs a hash of its bytes and one comparison: it
/// is not trimmed, mapped, checked against the placeholders or the buildings table, or looked up again. What a cell
/// becomes depends only on its bytes and its column, so the answer kept is the one the rules would give again.
struct SeenCells {
    /// What a blank or placeholder cell became: no value.
    static let empty: Int32 = -1
    /// What a cell that must be normalized every time became (a building not in the table, reported on every row).
    static let notKept: Int32 = -2

    private var cells = TextPool()
    private var results: [Int32] = []

    /// The result kept for `cell`, or `nil` when it is new: it is then added, and `keep(_:)` must follow.
    mutating func result(of cell: UnsafeBufferPointer<UInt8>) -> Int32? {
        let (index, isNew) = cells.intern(cell)
        return isNew ? nil : results[Int(index)]
    }

    /// Keeps what the cell `result(of:)` has just added became.
    mutating func keep(_ result: Int32) {
        results.append(result)
    }
}
