import Foundation

/// The free texts of the whole process, each stored once and named by an `Int32` id, so that a row holds its texts
/// in 4 bytes each instead of 16.
///
/// Texts are only ever added, so an id stays valid for the life of the process, and its `String` is read without a
/// lock: the strings live in fixed segments that never move. Adding takes a lock, of one of 64 shards chosen by the
/// text's hash, so that files read on several cores seldom wait for each other. Readers of a file keep their own
/// `TextPool` in front of it for free text, so a text repeated in a file takes a lock once, not once per cell; serial
/// numbers, nearly all distinct, are collected in a `TextBatch` and added together (`ids(of:)`), shard by shard.
final class SharedTexts: @unchecked Sendable {
    /// The one table of the process.
    static let shared = SharedTexts()

    /// An id is `index << shardBits | shard`.
    private static let shardBits = 6
    private static let segmentBits = 14
    private static let segmentSize = 1 << segmentBits
    /// Segments per shard: 2^31 ids in all.
    private static let segmentCount = 1 << (31 - shardBits - segmentBits)

    private final class Shard: @unchecked Sendable {
        let lock = NSLock()
        /// Read and changed only while holding `lock`, which makes each access exclusive: the runtime's own check of
        /// that (`swift_beginAccess` on every intern) cost about 190 instructions a serial number.
        @exclusivity(unchecked) var index = TextPool()
        /// Segments of `segmentSize` strings; `segments[i >> segmentBits]` holds the text of index `i`.
        let segments: UnsafeMutablePointer<UnsafeMutablePointer<String>?>

        /// A shard whose segment table is `segments`, `segmentCount` entries, all nil.
        init(segments: UnsafeMutablePointer<UnsafeMutablePointer<String>?>) {
            self.segments = segments
        }

        /// Starts fetching what interning texts reads: the slot of the text whose hash is `slotHash`, and the entry
        /// named by the (already fetched) slot of the one whose hash is `entryHash`; call it holding `lock`.
        func prefetch(slotOf slotHash: UInt64?, entryOf entryHash: UInt64?) {
            if let slotHash { index.prefetchSlot(hash: slotHash) }
            if let entryHash { index.prefetchEntry(hash: entryHash) }
        }

        /// Whether this shard's table is large enough to prefetch for (`TextPool.isLarge`).
        var isLarge: Bool { index.isLarge }

        /// The index in this shard of `text`, whose hash is `hash`, adding it when new; call it holding `lock`.
        func intern(_ text: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int32 {
            let (index, isNew) = self.index.intern(text, hash: hash)
            if isNew {
                let segment = Int(index) >> SharedTexts.segmentBits
                precondition(segment < SharedTexts.segmentCount, "more than 2^31 distinct texts")
                if segments[segment] == nil { segments[segment] = .allocate(capacity: SharedTexts.segmentSize) }
                (segments[segment]! + Int(index) & (SharedTexts.segmentSize - 1)).initialize(
                    to: String(decoding: text, as: UTF8.self))
            }
            return index
        }
    }

    private let shards: [Shard]

    private init() {
        // The shards' segment tables (1 MB) are one mapping of fresh zero pages, which read as nil: a small account
        // uses a handful of its entries. Writing nil into every one cost it about 200 page faults, and so did
        // `calloc`, which clears heap memory when the C library serves a block this size from the heap (it does
        // once a larger block has been freed).
        let count = Self.segmentCount << Self.shardBits
        let bytes = count * MemoryLayout<UnsafeMutablePointer<String>?>.stride
        let mapping = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        precondition(mapping != MAP_FAILED, "no memory for the table of shared texts")
        let tables = mapping!.bindMemory(to: UnsafeMutablePointer<String>?.self, capacity: count)
        shards = (0..<(1 << Self.shardBits)).map { number in Shard(segments: tables + number * Self.segmentCount) }
    }

    /// The shard of the texts whose hash is `hash`.
    private static func shard(of hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash >> UInt64(64 - shardBits))
    }

    /// The id of the text whose UTF-8 bytes are `text`, adding it (as `String(decoding:as:)` makes it) when new.
    func id(of text: UnsafeBufferPointer<UInt8>) -> Int32 {
        let hash = TextPool.hash(text)
        let number = Self.shard(of: hash)
        let shard = shards[number]
        let index = shard.lock.withLock { shard.intern(text, hash: hash) }
        return index << Int32(Self.shardBits) | Int32(number)
    }

    /// The ids of the texts of `batch`, in its order, adding those that are new as `id(of:)` does.
    ///
    /// The texts are added in the order of their hashes: shard by shard, each shard locked once, and within a shard
    /// from its first slot to its last (see `TextPool.home(of:slotCount:)`), so that the table is gone through
    /// once, in order, rather than at random. A shard another thread holds is left for later rather than waited for,
    /// so that threads adding batches at the same time do not follow each other from shard to shard.
    func ids(of batch: TextBatch) -> [Int32] {
        let count = batch.count
        guard count > 0 else { return [] }
        // The texts sorted by the high `bits` bits of their hashes (about eight texts per value, so that the counts
        // stay in the cache), which start with the shard's: a counting sort. Each is copied to its place, with its hash and its index in the batch and,
        // when it is short, its bytes, so that the texts are then read in order, not at random.
        let bits = min(16, max(Self.shardBits, Int.bitWidth - count.leadingZeroBitCount - 3))
        // `bits` is 6 to 16: the shift is 48 to 58 bits.
        let shift = UInt64(64 - bits)
        var firsts = [Int32](repeating: 0, count: (1 << bits) + 1)
        var ids = [Int32](repeating: 0, count: count)
        let sorted = UnsafeMutableRawPointer.allocate(
            byteCount: count * SortedText.size, alignment: MemoryLayout<UInt64>.alignment)
        defer { sorted.deallocate() }
        batch.bytes.withUnsafeBufferPointer { bytes in
            batch.hashes.withUnsafeBufferPointer { hashes in
                for hash in hashes { firsts[Int(truncatingIfNeeded: hash &>> shift) + 1] += 1 }
            }
            for value in 0..<(1 << bits) { firsts[value + 1] += firsts[value] }
            var next = firsts
            for index in 0..<count {
                let hash = batch.hashes[index]
                let value = Int(truncatingIfNeeded: hash &>> shift)
                SortedText.store(
                    at: sorted + Int(next[value]) * SortedText.size, hash: hash, index: index,
                    range: batch.range(of: index), of: bytes)
                next[value] += 1
            }
            let valuesPerShard = 1 << (bits - Self.shardBits)
            func add(_ number: Int) {
                let shard = shards[number]
                let positions = Int(firsts[number * valuesPerShard])..<Int(firsts[(number + 1) * valuesPerShard])
                // In a large table a text's slot is fetched 16 texts ahead, and the entry the slot names 8 ahead, by when
                // the slot is in the cache.
                let prefetching = shard.isLarge
                for position in positions {
                    if prefetching {
                        let slotAhead = position + Prefetch.keysAhead
                        let entryAhead = position + Prefetch.keysAhead / 2
                        shard.prefetch(
                            slotOf: slotAhead < positions.upperBound
                                ? SortedText.hash(at: sorted + slotAhead * SortedText.size) : nil,
                            entryOf: entryAhead < positions.upperBound
                                ? SortedText.hash(at: sorted + entryAhead * SortedText.size) : nil)
                    }
                    let entry = sorted + position * SortedText.size
                    let (text, hash, index) = SortedText.load(at: entry, bytes: bytes)
                    ids[index] = shard.intern(text, hash: hash) << Int32(Self.shardBits) | Int32(number)
                }
            }
            var busy: [Int] = []
            for number in shards.indices where firsts[number * valuesPerShard] < firsts[(number + 1) * valuesPerShard] {
                let shard = shards[number]
                if shard.lock.try() {
                    add(number)
                    shard.lock.unlock()
                } else {
                    busy.append(number)
                }
            }
            for number in busy { shards[number].lock.withLock { add(number) } }
        }
        return ids
    }

    /// A text of a batch in its sorted place, `size` bytes: its hash, its index in the batch, its length, then its
    /// bytes when they fit in `inlineBytes`, else where they start in the batch.
    private enum SortedText {
        static let size = 32
        static let inlineBytes = 16

        static func store(
            at entry: UnsafeMutableRawPointer, hash: UInt64, index: Int, range: Range<Int>,
            of bytes: UnsafeBufferPointer<UInt8>
        ) {
            entry.storeBytes(of: hash, as: UInt64.self)
            entry.storeBytes(of: Int32(truncatingIfNeeded: index), toByteOffset: 8, as: Int32.self)
            entry.storeBytes(of: Int32(truncatingIfNeeded: range.count), toByteOffset: 12, as: Int32.self)
            if range.count <= inlineBytes {
                if range.count > 0 {
                    (entry + 16).copyMemory(from: bytes.baseAddress! + range.lowerBound, byteCount: range.count)
                }
            } else {
                entry.storeBytes(of: range.lowerBound, toByteOffset: 16, as: Int.self)
            }
        }

        static func hash(at entry: UnsafeMutableRawPointer) -> UInt64 {
            entry.load(as: UInt64.self)
        }

        static func load(
            at entry: UnsafeMutableRawPointer, bytes: UnsafeBufferPointer<UInt8>
        ) -> (text: UnsafeBufferPointer<UInt8>, hash: UInt64, index: Int) {
            let hash = entry.load(as: UInt64.self)
            let index = Int(entry.load(fromByteOffset: 8, as: Int32.self))
            let count = Int(entry.load(fromByteOffset: 12, as: Int32.self))
            let start: UnsafePointer<UInt8>?
            if count <= inlineBytes {
                start = UnsafePointer((entry + 16).assumingMemoryBound(to: UInt8.self))
            } else {
                start = bytes.baseAddress! + entry.load(fromByteOffset: 16, as: Int.self)
            }
            return (UnsafeBufferPointer(start: start, count: count), hash, index)
        }
    }

    /// The id of `text`.
    func id(of text: String) -> Int32 {
        var text = text
        return text.withUTF8 { id(of: $0) }
    }

    /// Starts fetching the text with id `id` (its `String`, which holds a short text's bytes) without waiting for
    /// it; nothing for -1. The writers of a large table ask for the serial numbers of rows a few ahead: each is
    /// somewhere in a million.
    func prefetch(_ id: Int32) {
        guard id >= 0 else { return }
        let shard = shards[Int(id) & ((1 << Self.shardBits) - 1)]
        let index = Int(id) >> Self.shardBits
        guard let segment = shard.segments[index >> Self.segmentBits] else { return }
        Prefetch.line(at: segment + (index & (Self.segmentSize - 1)))
    }

    /// The text with id `id`, which this table gave out.
    func string(_ id: Int32) -> String {
        let shard = shards[Int(id) & ((1 << Self.shardBits) - 1)]
        let index = Int(id) >> Self.shardBits
        return shard.segments[index >> Self.segmentBits].unsafelyUnwrapped[index & (Self.segmentSize - 1)]
    }
}
