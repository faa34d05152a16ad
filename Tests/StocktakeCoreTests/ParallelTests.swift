import Foundation
import Testing

@testable import StocktakeCore

@Suite("Parallel: chunks on all cores, results in loop order")
struct ParallelTests {
    @Test func stocktakeThreadsSetsTheThreadsAndAnythingElseMeansOnePerCore() {
        #expect(Parallel.threads(environment: [:], cores: 2) == 2)
        #expect(Parallel.threads(environment: ["STOCKTAKE_THREADS": "1"], cores: 2) == 1)
        #expect(Parallel.threads(environment: ["STOCKTAKE_THREADS": "8"], cores: 2) == 8)
        #expect(Parallel.threads(environment: ["STOCKTAKE_THREADS": "100000"], cores: 2) == 256)
        for ignored in ["0", "-3", "two", "", " 4"] {
            #expect(Parallel.threads(environment: ["STOCKTAKE_THREADS": ignored], cores: 4) == 4)
        }
        #expect(Parallel.threads(environment: [:], cores: 0) == 1)
    }

    @Test func mapEqualsASequentialMap() {
        for count in [0, 1, 4095, 4096, 100_003] {
            #expect(Parallel.map(count) { "item \($0)" } == (0..<count).map { "item \($0)" })
        }
    }

    @Test func chunksCoverTheRangeOnceInOrder() {
        for count in [0, 1, 10_000, 1_000_001] {
            let chunks = Parallel.chunks(of: count)
            #expect(chunks.first?.lowerBound == 0)
            #expect(chunks.last?.upperBound == count)
            for (left, right) in zip(chunks, chunks.dropFirst()) { #expect(left.upperBound == right.lowerBound) }
        }
        #expect(Parallel.chunks(of: 100).count == 1)
    }

    @Test func chunkedReturnsEachChunksResultInOrder() {
        let sums = Parallel.chunked(50_000, minimum: 1000) { range in range.reduce(0, +) }
        #expect(sums.reduce(0, +) == (0..<50_000).reduce(0, +))
        #expect(sums.count == Parallel.chunks(of: 50_000, minimum: 1000).count)
    }
}
