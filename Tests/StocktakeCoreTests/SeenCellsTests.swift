import Testing

@testable import StocktakeCore

/// The cells of a column seen so far, and what each became.
struct SeenCellsTests {
    func withBytes<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// A new cell is added and has no result until one is kept; a cell seen before gives the result kept for its
    /// bytes, and only for exactly those bytes.
    @Test func aCellSeenBeforeGivesTheResultKeptForItsBytes() {
        var seen = SeenCells()
        #expect(withBytes("AP-515") { seen.result(of: $0) } == nil)
        seen.keep(7)
        #expect(withBytes(" AP-515") { seen.result(of: $0) } == nil)
        seen.keep(SeenCells.empty)
        #expect(withBytes("") { seen.result(of: $0) } == nil)
        seen.keep(SeenCells.notKept)
        #expect(withBytes("AP-515") { seen.result(of: $0) } == 7)
        #expect(withBytes(" AP-515") { seen.result(of: $0) } == SeenCells.empty)
        #expect(withBytes("") { seen.result(of: $0) } == SeenCells.notKept)
        #expect(withBytes("ap-515") { seen.result(of: $0) } == nil)
    }
}
