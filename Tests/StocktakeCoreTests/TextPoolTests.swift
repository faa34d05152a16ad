import Testing

@testable import StocktakeCore

struct TextPoolTests {
    func intern(_ pool: inout TextPool, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBufferPointer { pool.intern($0) }
    }

    @Test func equalBytesShareOneIdAndString() {
        var pool = TextPool()
        let first = intern(&pool, Array("Aruba AP-515 access point".utf8))
        let other = intern(&pool, Array("Aruba AP-535 access point".utf8))
        let again = intern(&pool, Array("Aruba AP-515 access point".utf8))
        #expect(first == again)
        #expect(first != other)
        #expect(pool[first] == "Aruba AP-515 access point")
        #expect(pool[other] == "Aruba AP-535 access point")
        #expect(pool.count == 2)
    }

    @Test func lengthAndEveryByteCount() {
        var pool = TextPool()
        let texts: [[UInt8]] = [
            [], [0], [0, 0], Array("a".utf8), Array("ab".utf8), Array("abcdefgh".utf8),
            Array("abcdefghi".utf8), Array("abcdefgi".utf8),
        ]
        let ids = texts.map { intern(&pool, $0) }
        #expect(Set(ids).count == texts.count)
        let found: [Int32?] = texts.map { text in text.withUnsafeBufferPointer { pool.id(of: $0) } }
        #expect(found == ids.map { $0 })
    }

    @Test func unknownTextHasNoId() {
        var pool = TextPool()
        _ = intern(&pool, Array("ABH".utf8))
        #expect(Array("ABC".utf8).withUnsafeBufferPointer { pool.id(of: $0) } == nil)
    }

    @Test func textThatIsNotUTF8IsRepairedAsAStringWouldBe() {
        var pool = TextPool()
        let id = intern(&pool, [0x61, 0xFF, 0x62])
        #expect(pool[id] == "a\u{FFFD}b")
        #expect(intern(&pool, [0x61, 0xFE, 0x62]) != id)
    }

    @Test func manyTextsGrowThePool() {
        var pool = TextPool()
        let ids = (0..<50_000).map { intern(&pool, Array("room \($0)".utf8)) }
        #expect(ids == (0..<50_000).map(Int32.init))
        #expect((0..<50_000).allSatisfy { intern(&pool, Array("room \($0)".utf8)) == Int32($0) })
        #expect(pool[49_999] == "room 49999")
    }
}
