/// A value that an `IdentifierIndex` keys by an integer: its own number, or the id of its text in `SharedTexts`.
protocol IndexKey: Hashable {
    /// A number equal exactly for equal values (texts are equal when their bytes are).
    var integerKey: UInt64 { get }
}

extension MACAddress: IndexKey {
    var integerKey: UInt64 { value }
}

extension CNSNumber: IndexKey {
    var integerKey: UInt64 { number }
}

extension SerialNumber: IndexKey {
    var integerKey: UInt64 { SerialCode(canonical: text).rawValue }
}

/// Which assets carry each value of one identifier (serial, MAC, CNS).
///
/// Nearly every value belongs to one asset, so that case costs one slot of an `IntegerTable`; only values shared by
/// several assets (the ones that become `SHARED_*` findings) keep a list, in ascending order.
struct IdentifierIndex<Key: IndexKey> {
    /// Per value: the asset (0 or more), or `-1 - n` for the n-th shared list.
    private var slots = IntegerTable()
    /// Values on two or more assets, and their assets in ascending order.
    private var sharedKeys: [Key] = []
    private var sharedLists: [[Int]] = []

    /// Values on two or more assets, with all their assets in ascending order.
    var shared: [Key: [Int]] {
        Dictionary(uniqueKeysWithValues: zip(sharedKeys, sharedLists))
    }

    /// Values on two or more assets with their assets, in the order they became shared.
    var sharedInOrder: Zip2Sequence<[Key], [[Int]]> { zip(sharedKeys, sharedLists) }

    /// How many values are on two or more assets.
    var sharedCount: Int { sharedKeys.count }

    /// The assets carrying `key`, ascending; `nil` when none does.
    subscript(key: Key) -> [Int]? {
        self[integer: key.integerKey]
    }

    /// The assets carrying the value whose `integerKey` is `integer`, ascending; `nil` when none does.
    subscript(integer integer: UInt64) -> [Int]? {
        guard let slot = slots[integer] else { return nil }
        return slot >= 0 ? [Int(slot)] : sharedLists[Int(-1 - slot)]
    }

    /// The one asset carrying the value whose `integerKey` is `integer`; `nil` when none or several do.
    func onlyAsset(integer: UInt64) -> Int? {
        guard let slot = slots[integer], slot >= 0 else { return nil }
        return Int(slot)
    }

    /// Starts fetching the memory a lookup of `integer` reads first (see `IntegerTable.prefetch(_:)`, and why it is
    /// `mutating`).
    @inline(__always)
    mutating func prefetch(integer: UInt64) {
        slots.prefetch(integer)
    }

    /// Whether prefetching pays for this index (`IntegerTable.outgrowsCache`).
    var outgrowsCache: Bool { slots.outgrowsCache }

    /// Makes room for `count` values up front, so a large account is not rehashed (and briefly doubled) as it grows.
    mutating func reserveCapacity(_ count: Int) {
        slots = IntegerTable(capacity: count)
    }

    /// Forgets the values carried by one asset only, keeping those shared by several (`shared`, `sharedInOrder`):
    /// once every row is placed nothing looks a value up, and the table of a million values is the largest thing
    /// identification leaves behind.
    mutating func keepOnlySharedValues() {
        slots = IntegerTable()
    }

    /// Records that `asset` carries `key`.
    mutating func add(_ asset: Int, for key: Key) {
        add(asset, integer: key.integerKey) { key }
    }

    /// Records that `asset` carries the value whose `integerKey` is `integer`; `key` makes the value itself, needed
    /// only when it turns out to be shared.
    mutating func add(_ asset: Int, integer: UInt64, key: () -> Key) {
        guard let slot = slots.value(of: integer, insertingIfAbsent: Int32(asset)) else { return }
        if slot >= 0 {
            guard Int(slot) != asset else { return }
            slots.set(Int32(-1 - sharedLists.count), for: integer)
            sharedKeys.append(key())
            sharedLists.append(slot < asset ? [Int(slot), asset] : [asset, Int(slot)])
        } else {
            Self.insert(asset, into: &sharedLists[Int(-1 - slot)])
        }
    }

    /// Adds `asset` once to a list kept in ascending order. A binary search keeps this fast when thousands of
    /// assets share one value (a junk serial such as `UNKNOWN`), where scanning the list made the graph quadratic.
    private static func insert(_ asset: Int, into list: inout [Int]) {
        guard let last = list.last, last >= asset else {
            list.append(asset)
            return
        }
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle] < asset { low = middle + 1 } else { high = middle }
        }
        if list[low] != asset { list.insert(asset, at: low) }
    }
}
