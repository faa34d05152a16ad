/// Gives each distinct text a small integer id, so that texts can be keys of an `IntegerTable`.
///
/// Texts are found by a 64-bit hash of their UTF-8 bytes; texts whose hashes collide are chained and told apart by
/// comparing them, so two different texts never share an id.
struct TextInterner {
    private var firstWithHash = IntegerTable()
    /// The texts, by id.
    private(set) var texts: [String] = []
    /// The next text with the same hash, by id (-1 ends the chain).
    private var nextWithHash: [Int32] = []

    init(capacity: Int = 0) {
        firstWithHash = IntegerTable(capacity: capacity)
        texts.reserveCapacity(capacity)
        nextWithHash.reserveCapacity(capacity)
    }

    /// The id of `text`, or `nil` when it was never interned.
    func id(of text: String) -> Int32? {
        guard var id = firstWithHash[Self.hash(text)] else { return nil }
        while id >= 0 {
            if texts[Int(id)] == text { return id }
            id = nextWithHash[Int(id)]
        }
        return nil
    }

    /// The id of `text`, interning it first when it is new.
    mutating func intern(_ text: String) -> Int32 {
        let hash = Self.hash(text)
        let new = Int32(texts.count)
        guard let first = firstWithHash.value(of: hash, insertingIfAbsent: new) else {
            texts.append(text)
            nextWithHash.append(-1)
            return new
        }
        var id = first
        while true {
            if texts[Int(id)] == text { return id }
            let next = nextWithHash[Int(id)]
            if next < 0 { break }
            id = next
        }
        nextWithHash[Int(id)] = new
        texts.append(text)
        nextWithHash.append(-1)
        return new
    }

    /// FNV-1a over the UTF-8 bytes, kept below `UInt64.max` (the empty mark of `IntegerTable`).
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var utf8 = text
        utf8.withUTF8 { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        return hash == .max ? hash - 1 : hash
    }
}
