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

    /// Texts added from several threads at once, past the size of one segment, all read back.
    @Test func concurrentAddsGiveOneIdPerText() {
        let ids = ResultSlots<[Int32]>(count: 4)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            ids[worker] = (0..<20_000).map { SharedTexts.shared.id(of: "SharedTextsTests concurrent \($0)") }
        }
        let first = ids[0]!
        #expect((1..<4).allSatisfy { ids[$0]! == first })
        #expect(Set(first).count == 20_000)
        #expect((0..<20_000).allSatisfy { texts.string(first[$0]) == "SharedTextsTests concurrent \($0)" })
    }
}
