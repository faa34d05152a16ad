import Testing

@testable import StocktakeGenerator

@Suite struct IdentifierAllocatorTests {
    @Test func neighborsAreOneDigitChangedOrOneAdjacentSwap() {
        let allocator = IdentifierAllocator(tagDigits: 4, cnsDigits: 4)
        let neighbors = Set(allocator.neighbors(of: 1_213))
        #expect(neighbors.count == 4 * 9 + 3)
        #expect(neighbors.contains(2_113))
        #expect(neighbors.contains(1_231))
        #expect(neighbors.contains(9_213))
        #expect(!neighbors.contains(3_211))
    }

    @Test func typoIsCloseToItsTargetOnlyAndOutsideTagsToNoCentralTag() {
        var allocator = IdentifierAllocator(tagDigits: 4, cnsDigits: 4)
        var random = SeededRandom(seed: 11)
        let central = (0..<300).map { _ in allocator.centralTag(random: &random) }
        let centralSet = Set(central)
        for target in central.prefix(20) {
            guard let typo = allocator.typo(of: target, random: &random) else {
                continue
            }
            #expect(!centralSet.contains(typo.tag))
            #expect(allocator.neighbors(of: typo.tag).filter { centralSet.contains($0) } == [target])
        }
        for _ in 0..<20 {
            let outside = allocator.outsideTag(random: &random)
            #expect(!centralSet.contains(outside))
            #expect(allocator.neighbors(of: outside).allSatisfy { !centralSet.contains($0) })
        }
    }
}
