import Foundation

/// The data rows read so far by the readers that share a limit: the parts of one source, or all the sources of an
/// account, read at the same time.
///
/// Readers add their rows a few thousand at a time, so that the lock is taken rarely and a file of too many rows is
/// stopped after at most a few thousand rows past the limit per reader, never after the whole file.
final class RowBudget: @unchecked Sendable {
    /// The most rows the readers may read together.
    let limit: Int
    /// The account whose sources share the budget; `nil` for the budget of one source.
    let account: String?
    private let lock = NSLock()
    private var used = 0

    /// A budget of `limit` rows, for the sources of `account`, or for one source when `account` is `nil`.
    init(limit: Int, account: String? = nil) {
        self.limit = limit
        self.account = account
    }

    /// Adds `count` rows read; returns `false` when the rows read together are now more than `limit`.
    func add(_ count: Int) -> Bool {
        lock.withLock {
            used += count
            return used <= limit
        }
    }

    /// Takes back `count` rows added before (rows read again).
    func remove(_ count: Int) {
        lock.withLock { used -= count }
    }
}
