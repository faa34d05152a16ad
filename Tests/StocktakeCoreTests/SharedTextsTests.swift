import Dispatch
import Testing

@testable import StocktakeCore

struct SharedTextsTests {
    let texts = SharedTexts.shared

    func id(_ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBufferPointer { texts.id(of: $0) }
    }

    @Test func aTextKeepsItsIdAndItsString() {
        let first = id(Array("SharedTextsTests: Aruba AP-515".utf8))
        #expect(id(Array("SharedTextsTests: Aruba AP-515".utf8)) == first)
        #expect(texts.id(of: "SharedTextsTests: Aruba AP-515") == first)
        #expect(texts.string(first) == "SharedTextsTests: Aruba AP-515")
        #expect(texts.id(of: "SharedTextsTests: Aruba AP-535") != first)
    }

    @Test func bytesThatAreNotUTF8BecomeTheStringThatDecodingThemMakes() {
        let bytes: [UInt8] = [0x53, 0x54, 0xFF, 0x61]
        #expect(texts.string(id(bytes)) == String(decoding: bytes, as: UTF8.self))
        #expect(texts.string(id(bytes)) == "ST\u{FFFD}a")
    }

    /// Texts added from several threads at once, more than fill one segment of every shard (64 × 16,384), all
    /// read back.
    @Test func concurrentAddsGiveOneIdPerText() {
        let count = 1_100_000
        let ids = ResultSlots<[Int32]>(count: 2)
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            ids[worker] = (0..<count).map { SharedTexts.shared.id(of: "SharedTextsTests concurrent \($0)") }
        }
        let first = ids[0]!
        #expect(ids[1]! == first)
        #expect(Set(first).count == count)
        #expect((0..<count).allSatisfy { texts.string(first[$0]) == "SharedTextsTests concurrent \($0)" })
    }

    func batch(_ texts: [String]) -> TextBatch {
        var batch = TextBatch()
        for text in texts { _ = Array(text.utf8).withUnsafeBufferPointer { batch.append($0) } }
        return batch
    }

    /// A batch gives each text the id `id(of:)` gives it, in the batch's order, whether the text was there before,
    /// is new, or is in the batch twice; short texts (copied beside their hash while sorted) and long ones alike.
    @Test func aBatchGivesTheIdsThatAddingOneByOneGives() {
        let known = "SharedTextsTests batch: known CN52T8QUPS"
        let knownID = texts.id(of: known)
        let long = "SharedTextsTests batch: a serial number longer than sixteen bytes"
        let texts = ["SGB1", known, "", long, "SGB1", "SharedTextsTests batch: TWE4DA74YL"]
        let ids = SharedTexts.shared.ids(of: batch(texts))
        #expect(ids.count == texts.count)
        #expect(ids[1] == knownID)
        #expect(ids[0] == ids[4])
        #expect(ids == texts.map { self.texts.id(of: $0) })
        #expect(ids.map { self.texts.string($0) } == texts)
        #expect(SharedTexts.shared.ids(of: TextBatch()).isEmpty)
    }

    /// Batches of many texts added from two threads at once (so that a shard is often held by the other thread and
    /// left for later) give each text one id, the one `id(of:)` gives it.
    @Test func concurrentBatchesGiveOneIdPerText() {
        let count = 200_000
        let ids = ResultSlots<[Int32]>(count: 2)
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            let order = worker == 0 ? Array(0..<count) : Array((0..<count).reversed())
            let batchIDs = SharedTexts.shared.ids(of: batch(order.map { "SharedTextsTests batch \($0)" }))
            var byText = [Int32](repeating: -1, count: count)
            for (position, text) in order.enumerated() { byText[text] = batchIDs[position] }
            ids[worker] = byText
        }
        let first = ids[0]!
        #expect(ids[1]! == first)
        #expect(Set(first).count == count)
        #expect((0..<count).allSatisfy { texts.string(first[$0]) == "SharedTextsTests batch \($0)" })
        #expect((0..<count).allSatisfy { texts.id(of: "SharedTextsTests batch \($0)") == first[$0] })
    }
}
