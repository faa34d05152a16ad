import Testing

@testable import StocktakeCore

@Suite("ShortCopy: a few bytes copied without memcpy")
struct ShortCopyTests {
    @Test("every count from 0 to 80 copies exactly its bytes, at every offset of source and target")
    func everyCountAtEveryOffset() {
        let source = (0..<96).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for count in 0...80 {
            for sourceOffset in 0..<8 {
                for targetOffset in 0..<8 {
                    var target = [UInt8](repeating: 0xEE, count: 104)
                    source.withUnsafeBytes { from in
                        target.withUnsafeMutableBytes { to in
                            ShortCopy.copy(
                                from: from.baseAddress! + sourceOffset, to: to.baseAddress! + targetOffset,
                                count: min(count, 96 - sourceOffset))
                        }
                    }
                    let copied = min(count, 96 - sourceOffset)
                    #expect(Array(target[..<targetOffset]).allSatisfy { $0 == 0xEE })
                    #expect(
                        Array(target[targetOffset..<targetOffset + copied])
                            == Array(source[sourceOffset..<sourceOffset + copied]), "count \(count)")
                    #expect(Array(target[(targetOffset + copied)...]).allSatisfy { $0 == 0xEE }, "count \(count)")
                }
            }
        }
    }
}
