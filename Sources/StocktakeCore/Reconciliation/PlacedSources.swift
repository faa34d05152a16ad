import Foundation

/// The asset of each row of each source, handed a source at a time from the thread that places the tagged rows to
/// the threads that index them (`AssetGraph`): an index of the rows placed so far follows the placing a source
/// behind, instead of waiting for every source to be placed.
///
/// A source's array is published once it is complete and never written again here, so readers share it without
/// copying it; `take()` hands every array back, and this holds none of them any more.
final class PlacedSources: @unchecked Sendable {
    private let condition = NSCondition()
    private var assets: [[Int32]?]

    /// Room for the arrays of `count` sources, none published yet.
    init(count: Int) {
        assets = Array(repeating: nil, count: count)
    }

    /// Publishes the assets of the rows of `source` (-1 for a row not placed), waking whoever waits for them.
    func publish(_ rows: [Int32], source: Int) {
        condition.lock()
        assets[source] = rows
        condition.broadcast()
        condition.unlock()
    }

    /// The assets of the rows of `source`, once they are published.
    func assets(of source: Int) -> [Int32] {
        condition.lock()
        defer { condition.unlock() }
        while assets[source] == nil { condition.wait() }
        return assets[source]!
    }

    /// Every source's array, in source order; each must have been published.
    func take() -> [[Int32]] {
        condition.lock()
        defer { condition.unlock() }
        let all = assets.map { $0! }
        assets = []
        return all
    }
}
