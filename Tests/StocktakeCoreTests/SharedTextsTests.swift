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
}
