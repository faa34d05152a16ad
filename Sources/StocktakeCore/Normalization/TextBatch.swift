/// Texts collected one by one and added to `SharedTexts` together, with `SharedTexts.ids(of:)`.
///
/// Serial numbers are nearly all distinct, so adding each as its row is read looks up a table far larger than the
/// caches at a random place, twice (its slot, then its text). Collected first, they are added shard after shard of
/// the shared table, each shard's part of the table staying in the cache while its texts go in.
struct TextBatch {
    /// The bytes of all texts, one after the other.
    private(set) var bytes: [UInt8] = []
    /// Where each text ends in `bytes`; text `i` starts where text `i - 1` ends.
    private var ends: [Int] = []
    /// `TextPool.hash(_:)` of each text, taken while its bytes are in the cache.
    private(set) var hashes: [UInt64] = []

    /// How many texts the batch holds.
    var count: Int { ends.count }

    /// Adds `text` (a copy of its bytes) and returns its index in the batch.
    mutating func append(_ text: UnsafeBufferPointer<UInt8>) -> Int32 {
        let index = Int32(ends.count)
        bytes.append(contentsOf: text)
        ends.append(bytes.count)
        hashes.append(TextPool.hash(text))
        return index
    }

    /// Removes the texts from `index` on (the text at `index` and every text after it).
    mutating func removeTexts(from index: Int) {
        guard index < count else { return }
        bytes.removeSubrange(range(of: index).lowerBound...)
        ends.removeSubrange(index...)
        hashes.removeSubrange(index...)
    }

    /// Empties the batch, keeping its memory for the next texts.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
    }

    /// The range of text `index` in `bytes`.
    func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }
}
