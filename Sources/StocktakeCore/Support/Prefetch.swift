import CMemory

/// Fetching memory ahead of its use (`CMemory`'s `stocktake_prefetch`), for a large account's lookups in tables of
/// millions of entries (identifiers, rows, texts) taken in an order of their own: asking for what is needed a few
/// places ahead lets the waits for memory overlap instead of following one another.
///
/// A table that fits in a core's cache gains nothing and only pays for the asking (1.5 % more instructions in a
/// 3,000-asset account when every loop prefetched), so each caller decides once, before its loop: by
/// `pays(bytes:)`, or by a count measured for its own case (`AssetMerger.assetsInCache`, `TextPool.isLarge`).
enum Prefetch {
    /// A core's second-level cache on the machine stocktake is measured on (AMD EPYC, 1 MiB per core).
    static let cacheBytes = 1 << 20

    /// Whether prefetching pays for a structure of `bytes` that is read at random.
    static func pays(bytes: Int) -> Bool {
        bytes > cacheBytes
    }

    /// Starts fetching the cache line holding `address`, without waiting for it. A hint only: it never faults, so any
    /// address may be given.
    @inline(__always)
    static func line(at address: UnsafeRawPointer) {
        stocktake_prefetch(address)
    }

    /// How many keys ahead a loop over keys prefetches their slots: a lookup takes some tens of nanoseconds, memory
    /// about a hundred.
    static let keysAhead = 16
    /// How many rows ahead a table's writer prefetches a row's text.
    static let rowsAhead = 8
    /// How many assets ahead merging and the per-asset checks prefetch an asset's rows (each asset reads several).
    static let assetsAhead = 4
}
