#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The first occurrence of each row fingerprint of a file: an open-addressing table with linear probing, keyed
/// by 96 of the fingerprint's 128 bits (it is already a good hash, so nothing is hashed again). Two different rows
/// of a file of a million rows share 96 bits once in about 10^17 files.
///
/// An occurrence is one number the caller chooses: the record's index when records are kept (its row is the
/// record's), the row otherwise. Entries are 16 bytes, so that an entry never spans two cache lines and a lookup,
/// which waits for memory in a large file, reads fewer of them; they are in one flat array, which grows by doubling
/// when it is 70% full, and `reserve` presizes it once the number of rows can be estimated, so a large file rehashes
/// at most once or twice. The slot count need not be a power of two (a fingerprint's first slot is its hash scaled
/// to the count), so a presized table is about as large as it needs to be, not up to twice that: every slot of a
/// large table is written to memory that the kernel must clear first.
struct FingerprintTable {
    /// One slot; `occurrence` 0 marks an empty slot.
    struct Entry {
        /// The fingerprint's first 64 bits.
        var first: UInt64
        /// The high 32 bits of its second 64.
        var second: UInt32
        /// The first occurrence, plus one.
        var occurrence: UInt32
    }

    /// The slots, in memory of their own: a large table is looked up at random, so it asks for huge pages, which
    /// saves a page-table walk on most lookups.
    private final class Slots {
        let entries: UnsafeMutableBufferPointer<Entry>
        /// The mapping that holds a large table, or `nil` when it is on the heap.
        private let mapping: (address: UnsafeMutableRawPointer, length: Int)?

        init(count: Int) {
            let bytes = count * MemoryLayout<Entry>.stride
            let hugePage = 2 << 20
            if bytes >= hugePage, let address = Self.map(bytes + hugePage) {
                mapping = (address, bytes + hugePage)
                // Huge pages must be aligned to their size.
                let aligned = (Int(bitPattern: address) + hugePage - 1) & ~(hugePage - 1)
                let start = UnsafeMutableRawPointer(bitPattern: aligned)!
                #if os(Linux)
                    _ = madvise(start, bytes, MADV_HUGEPAGE)
                    // Every page is written, and a lookup reads its slot before an insert writes it: left to fault
                    // in, a page was first mapped to the shared page of zeros, then copied on the write, and each copy
                    // stopped the other core to flush its address cache (about 70 ms of a 1,000,000-asset read).
                    // Made writable at once instead; a kernel before 5.14 refuses, and the pages fault in as before.
                    _ = madvise(start, bytes, MADV_POPULATE_WRITE)
                #endif
                // Fresh anonymous memory reads as zeros: every slot starts empty.
                entries = UnsafeMutableBufferPointer(
                    start: start.bindMemory(to: Entry.self, capacity: count), count: count)
            } else {
                mapping = nil
                entries = .allocate(capacity: count)
                entries.initialize(repeating: Entry(first: 0, second: 0, occurrence: 0))
            }
        }

        private static func map(_ bytes: Int) -> UnsafeMutableRawPointer? {
            let address = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            return address == MAP_FAILED ? nil : address
        }

        deinit {
            if let mapping {
                munmap(mapping.address, mapping.length)
            } else {
                entries.deallocate()
            }
        }
    }

    private var slots: Slots
    /// How many fingerprints the table holds.
    private(set) var count = 0

    /// Creates a table that holds `capacity` fingerprints without growing.
    init(capacity: Int = 0) {
        slots = Slots(count: Self.size(for: capacity))
    }

    /// The slot count (at least 16) for `capacity` fingerprints at most 70% full.
    private static func size(for capacity: Int) -> Int {
        max(16, (capacity * 10 + 6) / 7)
    }

    /// The first slot to try, of `size`, for a fingerprint whose hash is `hash`: the hash scaled to the count.
    @inline(__always)
    private static func home(of hash: UInt64, size: Int) -> Int {
        Int(truncatingIfNeeded: hash.multipliedFullWidth(by: UInt64(size)).high)
    }

    /// The bits of the fingerprint's second half that an entry keeps.
    @inline(__always)
    private static func secondBits(_ fingerprint: RowFingerprint) -> UInt32 {
        UInt32(truncatingIfNeeded: fingerprint.second &>> 32)
    }

    /// The hash the slots are found by.
    @inline(__always)
    private static func hash(_ first: UInt64, _ second: UInt32) -> UInt64 {
        first ^ UInt64(second)
    }

    /// Where a lookup found a fingerprint, or the empty slot it would take: `insert(_:occurrence:at:)` fills that
    /// slot without probing again, so a row is looked for once whether or not it is then inserted.
    struct Place {
        /// The first occurrence found, `nil` when the fingerprint is not in the table.
        let first: Int32?
        fileprivate let index: Int
        /// The table's count when it was looked up: a place is stale once anything was inserted after it.
        fileprivate let count: Int
    }

    /// Where `fingerprint` is, with its first occurrence, or where it would go.
    func place(of fingerprint: RowFingerprint) -> Place {
        let index = slot(of: fingerprint)
        let entry = slots.entries[index]
        return Place(
            first: entry.occurrence == 0 ? nil : Int32(bitPattern: entry.occurrence &- 1), index: index, count: count)
    }

    /// Starts fetching the slot a lookup of `fingerprint` begins at, without waiting for it: a row of a large file
    /// is looked up once its cells are read (`ReadState`), by when its slot is in the cache.
    @inline(__always)
    func prefetch(_ fingerprint: RowFingerprint) {
        let entries = slots.entries
        let index = Self.home(of: Self.hash(fingerprint.first, Self.secondBits(fingerprint)), size: entries.count)
        // A new row, nearly every row, is looked up past its home slot to an empty one: the line after the home
        // slot's is fetched too.
        let home = UnsafeRawPointer(entries.baseAddress! + index)
        Prefetch.line(at: home)
        Prefetch.line(at: home + 64)
    }

    /// Inserts `occurrence` (0 or more) as the first occurrence of `fingerprint` at `place`, which `place(of:)` gave
    /// for it, found empty, with nothing inserted since.
    mutating func insert(_ fingerprint: RowFingerprint, occurrence: Int32, at place: Place) {
        precondition(occurrence >= 0 && occurrence < Int32.max, "an occurrence is a record index or a row")
        precondition(place.first == nil && place.count == count, "a place is used once, before any other insert")
        let entries = slots.entries
        entries[place.index] = Entry(
            first: fingerprint.first, second: Self.secondBits(fingerprint), occurrence: UInt32(occurrence) + 1)
        count += 1
        if count * 10 > entries.count * 7 { resize(to: entries.count * 2) }
    }

    /// Makes room for `capacity` fingerprints in all, so that inserting up to that many does not rehash.
    mutating func reserve(_ capacity: Int) {
        let size = Self.size(for: capacity)
        if size > slots.entries.count { resize(to: size) }
    }

    /// The slot holding `fingerprint`, or the empty slot where it would go.
    private func slot(of fingerprint: RowFingerprint) -> Int {
        let buffer = slots.entries
        let size = buffer.count
        let second = Self.secondBits(fingerprint)
        var index = Self.home(of: Self.hash(fingerprint.first, second), size: size)
        while true {
            let entry = buffer[index]
            if entry.occurrence == 0 || (entry.first == fingerprint.first && entry.second == second) {
                return index
            }
            index += 1
            if index == size { index = 0 }
        }
    }

    private mutating func resize(to size: Int) {
        let old = slots
        slots = Slots(count: size)
        let buffer = slots.entries
        for entry in old.entries where entry.occurrence != 0 {
            var index = Self.home(of: Self.hash(entry.first, entry.second), size: size)
            while buffer[index].occurrence != 0 {
                index += 1
                if index == size { index = 0 }
            }
            buffer[index] = entry
        }
    }
}
