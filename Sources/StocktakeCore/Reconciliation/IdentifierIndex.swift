/// Which assets carry each value of one identifier (serial, MAC, CNS).
///
/// Nearly every value belongs to one asset, so that case costs one integer; only values shared by several assets
/// (the ones that become `SHARED_*` findings) keep a list, in ascending order.
struct IdentifierIndex<Key: Hashable> {
    private var single: [Key: Int32] = [:]
    /// Values on two or more assets, with all their assets in ascending order.
    private(set) var shared: [Key: [Int]] = [:]

    /// The assets carrying `key`, ascending; `nil` when none does.
    subscript(key: Key) -> [Int]? {
        if let list = shared[key] { return list }
        return single[key].map { [Int($0)] }
    }

    /// Makes room for `count` values up front, so a large account is not rehashed (and briefly doubled) as it grows.
    mutating func reserveCapacity(_ count: Int) {
        single.reserveCapacity(count)
    }

    /// Records that `asset` carries `key`.
    mutating func add(_ asset: Int, for key: Key) {
        if shared[key] != nil {
            Self.insert(asset, into: &shared[key]!)
            return
        }
        guard let first = single[key] else {
            single[key] = Int32(asset)
            return
        }
        guard Int(first) != asset else { return }
        single[key] = nil
        shared[key] = first < asset ? [Int(first), asset] : [asset, Int(first)]
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
