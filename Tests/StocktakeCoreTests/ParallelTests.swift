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

    /// The account launcher warms up on its one thread; the processes it forks decide their threads from their own
    /// environment, as if it had not.
    @Test func withoutThreadsIsOneThreadStartingNoneAndIsForgottenAfter() {
        let decided = Parallel.threads(
            environment: ProcessInfo.processInfo.environment, cores: ProcessInfo.processInfo.activeProcessorCount)
        #expect(Parallel.mayStartThreads)
        Parallel.withoutThreads {
            #expect(Parallel.threads == 1)
            #expect(!Parallel.mayStartThreads)
        }
        #expect(Parallel.threads == decided)
        #expect(Parallel.mayStartThreads)
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

extension ParallelTests {
    /// What `perform` saw: the indices in the order run, the threads that ran them, the most running at once.
    private final class Visits: @unchecked Sendable {
        let lock = NSLock()
        var indices: [Int] = []
        var threads: Set<UInt> = []
        var running = 0
        var mostAtOnce = 0

        func visit(_ index: Int) {
            lock.withLock {
                indices.append(index)
                threads.insert(UInt(bitPattern: Int(pthread_self())))
                running += 1
                mostAtOnce = max(mostAtOnce, running)
            }
            usleep(200)
            lock.withLock { running -= 1 }
        }
    }

    @Test func oneThreadRunsEveryIndexInOrderOnTheCallingThread() {
        let visits = Visits()
        Parallel.perform(50, threads: 1) { visits.visit($0) }
        #expect(visits.indices == Array(0..<50))
        #expect(visits.threads == [UInt(bitPattern: Int(pthread_self()))])
    }

    @Test func everyIndexRunsOnceAndNeverOnMoreThreadsThanAsked() {
        for threads in [2, 3] {
            let visits = Visits()
            Parallel.perform(200, threads: threads) { visits.visit($0) }
            #expect(visits.indices.sorted() == Array(0..<200))
            #expect(visits.mostAtOnce <= threads)
        }
    }

    @Test func alongsideRunsTheSideOnAThreadOfItsOwnWhileTheCallerRunsTheMain() {
        let caller = UInt(bitPattern: Int(pthread_self()))
        // The side waits until the main has started, and the main until the side has: one after the other on one
        // thread, either would wait forever (the timeouts make that a failure, not a hang).
        let mainStarted = DispatchSemaphore(value: 0)
        let sideStarted = DispatchSemaphore(value: 0)
        let (side, main) = Parallel.alongside(
            threads: 2,
            {
                sideStarted.signal()
                let waited = mainStarted.wait(timeout: .now() + 10) == .success
                return (UInt(bitPattern: Int(pthread_self())), waited)
            },
            {
                mainStarted.signal()
                let waited = sideStarted.wait(timeout: .now() + 10) == .success
                return (UInt(bitPattern: Int(pthread_self())), waited)
            })
        #expect(main.0 == caller)
        #expect(side.0 != caller)
        #expect(side.1 && main.1)
    }

    @Test func alongsideOnOneThreadRunsTheMainThenTheSideOnTheCallingThread() {
        let caller = UInt(bitPattern: Int(pthread_self()))
        let order = ResultSlots<[String]>(count: 1)
        order[0] = []
        let (side, main) = Parallel.alongside(
            threads: 1,
            {
                order[0]!.append("side")
                return UInt(bitPattern: Int(pthread_self()))
            },
            {
                order[0]!.append("main")
                return UInt(bitPattern: Int(pthread_self()))
            })
        #expect(order[0] == ["main", "side"])
        #expect(side == caller && main == caller)
        Parallel.withoutThreads {
            let (inside, _) = Parallel.alongside(threads: 2, { UInt(bitPattern: Int(pthread_self())) }, { 0 })
            #expect(inside == caller)
        }
    }

    @Test func detachReturnsAtOnceAndRunsTheWorkOnAThreadWithTheStackAsked() {
        let caller = UInt(bitPattern: Int(pthread_self()))
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let seen = ResultSlots<(thread: UInt, stack: Int, released: Bool)>(count: 1)
        Parallel.detach(stackBytes: 512 << 10) {
            var attributes = pthread_attr_t()
            var stack = 0
            if threadAttributes(pthread_self(), &attributes) == 0 {
                pthread_attr_getstacksize(&attributes, &stack)
                pthread_attr_destroy(&attributes)
            }
            // Held until the caller has gone on: `detach` does not wait for the work.
            let released = release.wait(timeout: .now() + 5) == .success
            seen[0] = (UInt(bitPattern: Int(pthread_self())), stack, released)
            done.signal()
        }
        release.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seen[0]?.released == true)
        #expect(seen[0]?.thread != caller)
        #expect(seen[0]?.stack == 512 << 10)
    }

    @Test func detachWhereNoThreadMayStartRunsTheWorkBeforeReturning() {
        let caller = UInt(bitPattern: Int(pthread_self()))
        let seen = ResultSlots<UInt>(count: 1)
        Parallel.withoutThreads { Parallel.detach { seen[0] = UInt(bitPattern: Int(pthread_self())) } }
        #expect(seen[0] == caller)
    }

    /// A thread the C library cannot start (here: its stack, 1 PB, is more than the address space) does not lose the
    /// work: a flush is then made on the calling thread, before `detach` returns.
    @Test func detachWhereTheThreadCannotStartRunsTheWorkBeforeReturning() {
        let caller = UInt(bitPattern: Int(pthread_self()))
        let seen = ResultSlots<UInt>(count: 1)
        Parallel.detach(stackBytes: 1 << 50) { seen[0] = UInt(bitPattern: Int(pthread_self())) }
        #expect(seen[0] == caller)
    }
}

/// The C library's `pthread_getattr_np` (a GNU extension Swift's Glibc module leaves out): a thread's attributes, its
/// stack among them.
@_silgen_name("pthread_getattr_np")
private func threadAttributes(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32
