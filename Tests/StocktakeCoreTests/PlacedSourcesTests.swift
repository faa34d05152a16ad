import Foundation
import Testing

@testable import StocktakeCore

@Suite("PlacedSources: each source's rows handed over once placed")
struct PlacedSourcesTests {
    @Test func aReaderWaitsUntilItsSourceIsPublished() {
        let placed = PlacedSources(count: 3)
        let published = ResultSlots<Bool>(count: 1)
        let seen = ResultSlots<[Int32]>(count: 3)
        let publishedWhenSeen = ResultSlots<Bool>(count: 3)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for source in 0..<3 {
                seen[source] = placed.assets(of: source)
                publishedWhenSeen[source] = published[0] ?? false
            }
            done.signal()
        }
        // The reader is given time to ask before anything is there.
        Thread.sleep(forTimeInterval: 0.05)
        published[0] = true
        placed.publish([0, -1, 1], source: 0)
        placed.publish([], source: 1)
        placed.publish([1, 2], source: 2)
        done.wait()
        // Each was handed back after it was published: a reader that did not wait would have seen the flag unset.
        #expect((0..<3).map { publishedWhenSeen[$0] } == [true, true, true])
        #expect(seen[0] == [0, -1, 1])
        #expect(seen[1] == [])
        #expect(seen[2] == [1, 2])
    }

    @Test func sourcesPublishedOutOfOrderAreReadInOrder() {
        let placed = PlacedSources(count: 2)
        placed.publish([7], source: 1)
        placed.publish([5], source: 0)
        #expect(placed.assets(of: 0) == [5])
        #expect(placed.assets(of: 1) == [7])
        #expect(placed.take() == [[5], [7]])
    }

    @Test func takenArraysAreNoLongerShared() {
        let placed = PlacedSources(count: 1)
        placed.publish(Array(repeating: -1, count: 1_000), source: 0)
        _ = placed.assets(of: 0)
        var taken = placed.take()
        let before = taken[0].withUnsafeBufferPointer { $0.baseAddress }
        // Written in place when nothing else holds the array; a reference kept by `placed` would make this a copy.
        taken[0][0] = 3
        let after = taken[0].withUnsafeBufferPointer { $0.baseAddress }
        #expect(before == after)
        #expect(taken[0][0] == 3)
    }
}
