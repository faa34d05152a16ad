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
}
