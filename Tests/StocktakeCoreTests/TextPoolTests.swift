import Testing

@testable import StocktakeCore

struct TextPoolTests {
    func intern(_ pool: inout TextPool, _ text: String) -> (id: Int32, isNew: Bool) {
        Array(text.utf8).withUnsafeBufferPointer { pool.intern($0) }
    }

    @Test func equalBytesShareOneId() {
        var pool = TextPool()
        let first = intern(&pool, "Aruba AP-515 access point")
        let other = intern(&pool, "Aruba AP-535 access point")
        let again = intern(&pool, "Aruba AP-515 access point")
        #expect(first.isNew && other.isNew && !again.isNew)
        #expect(first.id == again.id)
        #expect(first.id != other.id)
        #expect(Array(pool[first.id]) == Array("Aruba AP-515 access point".utf8))
        #expect(Array(pool[other.id]) == Array("Aruba AP-535 access point".utf8))
        #expect(pool.count == 2)
    }

    @Test func lengthAndEveryByteCount() {
        var pool = TextPool()
        let texts: [[UInt8]] = [
            [], [0], [0, 0], Array("a".utf8), Array("ab".utf8), Array("abcdefgh".utf8), Array("abcdefghi".utf8),
            Array("abcdefgi".utf8), [0x61, 0xFF], [0x61, 0xFE],
        ]
        let ids = texts.map { text in text.withUnsafeBufferPointer { pool.intern($0).id } }
        #expect(Set(ids).count == texts.count)
        let found: [Int32?] = texts.map { text in text.withUnsafeBufferPointer { pool.id(of: $0) } }
        #expect(found == ids.map { $0 })
    }

    @Test func unknownTextHasNoId() {
        var pool = TextPool()
        _ = intern(&pool, "ABH")
        #expect(Array("ABC".utf8).withUnsafeBufferPointer { pool.id(of: $0) } == nil)
    }

    @Test func manyTextsGrowThePool() {
        var pool = TextPool()
        let ids = (0..<50_000).map { intern(&pool, "room \($0)").id }
        #expect(ids == (0..<50_000).map(Int32.init))
        #expect((0..<50_000).allSatisfy { intern(&pool, "room \($0)") == (Int32($0), false) })
        #expect(Array(pool[49_999]) == Array("room 49999".utf8))
    }

    /// Each text's entry holds its length and id beside its bytes, and growing finds every entry again by hashing
    /// its bytes: texts of every length, the empty one included, keep their id and bytes through many growths.
    @Test func textsOfEveryLengthKeepTheirIdAndBytesAcrossGrowth() {
        var pool = TextPool()
        let texts: [[UInt8]] =
            (0..<5_000).map { index in Array((String(repeating: "x", count: index % 41) + "\(index)").utf8) } + [[]]
        let ids = texts.map { text in text.withUnsafeBufferPointer { pool.intern($0).id } }
        #expect(ids == (0..<Int32(texts.count)).map { $0 })
        #expect(texts.indices.allSatisfy { Array(pool[ids[$0]]) == texts[$0] })
        #expect(
            texts.indices.allSatisfy { index in texts[index].withUnsafeBufferPointer { pool.id(of: $0) } == ids[index] }
        )
        #expect(pool.count == texts.count)
    }

    /// A text's first slot comes from the hash's bits below its 6 highest (the shard's), so texts taken in the
    /// order of their hashes, as `SharedTexts.ids(of:)` takes them within a shard, go through the slots in order.
    /// Prefetching (done for large pools, as the shared one at a million serials) reads slots and entries but must
    /// change nothing: for texts held, texts not held, and hashes whose first slot holds another text.
    @Test func prefetchingALargePoolChangesNoIdAndNoText() {
        var pool = TextPool()
        let texts = (0..<20_000).map { Array("SN\($0 * 7_919)".utf8) }
        let ids = texts.map { text in text.withUnsafeBufferPointer { pool.intern($0).id } }
        #expect(pool.isLarge)
        for text in texts + (0..<5_000).map({ Array("absent \($0)".utf8) }) {
            let hash = text.withUnsafeBufferPointer { TextPool.hash($0) }
            pool.prefetchSlot(hash: hash)
            pool.prefetchEntry(hash: hash)
        }
        for bits in 0..<64 {
            pool.prefetchSlot(hash: 1 << UInt64(bits))
            pool.prefetchEntry(hash: 1 << UInt64(bits))
        }
        #expect(pool.count == texts.count)
        #expect(texts.map { text in text.withUnsafeBufferPointer { pool.intern($0) } }.allSatisfy { !$0.isNew })
        #expect(texts.map { text in text.withUnsafeBufferPointer { pool.id(of: $0) } } == ids.map(Optional.some))
        #expect(ids.map { Array(pool[$0]) } == texts)
        #expect(!TextPool().isLarge)
    }

    @Test func firstSlotsFollowTheOrderOfTheHashes() {
        let hashes: [UInt64] = [0, 1 << 40, 1 << 56, 1 << 57, (1 << 58) - 1, 1 << 58, UInt64.max]
        #expect(hashes.map { TextPool.home(of: $0, slotCount: 64) } == [0, 0, 16, 32, 63, 0, 63])
        #expect(TextPool.home(of: 1 << 40, slotCount: 1 << 20) == 4)
        let sorted = (0..<1000).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 & ((1 << 58) - 1) }.sorted()
        let homes = sorted.map { TextPool.home(of: $0, slotCount: 1 << 12) }
        #expect(homes == homes.sorted())
        #expect(homes.allSatisfy { $0 >= 0 && $0 < 1 << 12 })
    }

    /// The text hash as first written: whole words, then the last bytes packed one at a time. Ids depend on the hash
    /// (a text's shard), so the faster tail must give the same value.
    static func byteByByteHash(_ text: [UInt8]) -> UInt64 {
        func mix(_ value: UInt64) -> UInt64 {
            let product = value.multipliedFullWidth(by: 0xa076_1d64_78bd_642f)
            return product.high ^ product.low
        }
        var hash: UInt64 = 0x9e37_79b9_7f4a_7c15 ^ UInt64(text.count)
        var offset = 0
        while offset + 8 <= text.count {
            var word: UInt64 = 0
            for index in 0..<8 { word |= UInt64(text[offset + index]) << (8 * UInt64(index)) }
            hash = mix(hash ^ word)
            offset += 8
        }
        if offset < text.count {
            var word: UInt64 = 0
            for index in offset..<text.count { word |= UInt64(text[index]) << (8 * UInt64(index - offset)) }
            hash = mix(hash ^ word)
        }
        return mix(hash)
    }

    @Test func theHashOfEveryLengthToFortyIsTheByteByByteOne() {
        let bytes = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for start in [0, 3] {
            for length in 0...40 {
                let text = Array(bytes[start..<(start + length)])
                let hash = text.withUnsafeBufferPointer { TextPool.hash($0) }
                #expect(hash == Self.byteByByteHash(text), "length \(length)")
            }
        }
    }
}
