import StocktakeCore
import Testing

struct ByteTrimTests {
    @Test func trimsBlankBytesAtBothEnds() {
        let bytes: [UInt8] = [0x20, 0xC2, 0xA0, 0x09, 0x41, 0x20, 0x42, 0x0D, 0x0A, 0xC2, 0xA0]
        let trimmed = bytes.withUnsafeBufferPointer { Array(ByteTrim.trimmed($0)) }
        #expect(trimmed == [0x41, 0x20, 0x42])
    }

    @Test func trimsToNothing() {
        let bytes: [UInt8] = [0x20, 0xC2, 0xA0, 0x0A]
        #expect(bytes.withUnsafeBufferPointer { ByteTrim.trimmed($0).count } == 0)
        #expect([UInt8]().withUnsafeBufferPointer { ByteTrim.trimmed($0).count } == 0)
    }

    @Test func keepsALoneLeadByteOfANoBreakSpace() {
        let bytes: [UInt8] = [0xC2, 0x41, 0xA0]
        #expect(bytes.withUnsafeBufferPointer { Array(ByteTrim.trimmed($0)) } == bytes)
    }
}
