import Testing

@testable import StocktakeCore

@Suite("TextBatch: texts collected to be added to the shared table together")
struct TextBatchTests {
    private func texts(of batch: TextBatch) -> [String] {
        (0..<batch.count).map { String(decoding: batch.bytes[batch.range(of: $0)], as: UTF8.self) }
    }

    /// Texts removed from an index on leave the ones before them as they were, with their hashes, and texts added
    /// after take the indices that follow.
    @Test func textsRemovedFromAnIndexOnLeaveTheOthers() {
        var batch = TextBatch()
        for text in ["CN-1", "", "SN.22", "X Y"] { _ = Array(text.utf8).withUnsafeBufferPointer { batch.append($0) } }
        let hashes = batch.hashes
        batch.removeTexts(from: 2)
        #expect(texts(of: batch) == ["CN-1", ""])
        #expect(batch.hashes == Array(hashes[0..<2]))
        batch.removeTexts(from: 5)
        #expect(batch.count == 2)
        let index = Array("Z-9".utf8).withUnsafeBufferPointer { batch.append($0) }
        #expect(index == 2 && texts(of: batch) == ["CN-1", "", "Z-9"])
        batch.removeTexts(from: 0)
        #expect(batch.count == 0 && batch.bytes.isEmpty)
    }
}
