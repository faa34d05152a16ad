import Testing

@testable import StocktakeCore

@Suite("TextInterner: one id per distinct text")
struct TextInternerTests {
    @Test func equalTextsShareAnIdAndDifferentTextsNever() {
        var interner = TextInterner()
        let first = interner.intern("CNF123")
        #expect(interner.intern("CNF124") != first)
        #expect(interner.intern("CNF123") == first)
        // A long text, stored out of line, is found by its contents, not by the string it came from.
        let long = String(repeating: "SERIAL", count: 10)
        let id = interner.intern(long)
        #expect(interner.id(of: String(repeating: "SERIAL", count: 5) + String(repeating: "SERIAL", count: 5)) == id)
        #expect(interner.id(of: "unknown") == nil)
        #expect(interner.texts == ["CNF123", "CNF124", long])
    }

    @Test func manyTextsKeepDistinctIds() {
        var interner = TextInterner(capacity: 4)
        let texts = (0..<20_000).map { "SN\($0)" }
        let ids = texts.map { interner.intern($0) }
        #expect(Set(ids).count == texts.count)
        for (text, id) in zip(texts, ids) { #expect(interner.id(of: text) == id) }
    }
}
