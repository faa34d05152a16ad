import Testing

@testable import StocktakeCore

struct TextBatchTests {
    @Test func textsKeepTheirOrderBytesAndHashes() {
        var batch = TextBatch()
        let texts = ["CNX5KUDFVN", "", "A", "TW6WE1V1PN", "CNX5KUDFVN"]
        let indices = texts.map { text in Array(text.utf8).withUnsafeBufferPointer { batch.append($0) } }
        #expect(indices == [0, 1, 2, 3, 4])
        #expect(batch.count == 5)
        for (index, text) in texts.enumerated() {
            #expect(Array(batch.bytes[batch.range(of: index)]) == Array(text.utf8))
            #expect(batch.hashes[index] == Array(text.utf8).withUnsafeBufferPointer { TextPool.hash($0) })
        }
    }

    @Test func anEmptyBatchHoldsNothing() {
        let batch = TextBatch()
        #expect(batch.count == 0)
        #expect(batch.bytes.isEmpty && batch.hashes.isEmpty)
    }

    @Test func removingAllLeavesAnEmptyBatchThatTakesNewTexts() {
        var batch = TextBatch()
        _ = Array("SG2QZ00B8L".utf8).withUnsafeBufferPointer { batch.append($0) }
        batch.removeAll()
        #expect(batch.count == 0 && batch.bytes.isEmpty && batch.hashes.isEmpty)
        #expect(Array("CN52T8QUPS".utf8).withUnsafeBufferPointer { batch.append($0) } == 0)
        #expect(Array(batch.bytes[batch.range(of: 0)]) == Array("CN52T8QUPS".utf8))
    }

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
