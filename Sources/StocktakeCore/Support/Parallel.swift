import Dispatch
import Foundation

/// Work split over the machine's cores in contiguous chunks, with results in the order a loop would give.
public enum Parallel {
    /// The threads a run uses: `STOCKTAKE_THREADS` when set to a positive number (the benchmark's `--threads`, or
    /// a nightly run that already keeps every core busy with one account per core), else one per active core.
    ///
    /// Decided once per process: Foundation reads the cgroup's CPU files for each `activeProcessorCount`, and a run
    /// asked for its threads a dozen times.
    public static let threads =
        threads(environment: ProcessInfo.processInfo.environment, cores: ProcessInfo.processInfo.activeProcessorCount)

    /// The threads `environment` asks for: a positive whole `STOCKTAKE_THREADS` (at most 256), else one per core;
    /// any other value is ignored, so a typo never leaves a run with no thread.
    static func threads(environment: [String: String], cores: Int) -> Int {
        if let text = environment["STOCKTAKE_THREADS"], let count = Int(text), count > 0 { return min(count, 256) }
        return max(1, cores)
    }

    /// The ranges `0..<count` is split into: a few per thread, so a slow chunk does not leave a core idle, and
    /// none smaller than `minimum` (small inputs are not worth a thread).
    static func chunks(of count: Int, minimum: Int = 4096) -> [Range<Int>] {
        let pieces = max(1, min(threads * 4, count / max(1, minimum)))
        return (0..<pieces).map { piece in (count * piece / pieces)..<(count * (piece + 1) / pieces) }
    }

    /// Runs `body` once for each index of `0..<count` on at most `threads` threads at once, taking the indices in
    /// order; on one thread, on the calling thread. `DispatchQueue.concurrentPerform` alone runs its iterations on
    /// every core, whatever `STOCKTAKE_THREADS` says, which made accounts side by side in a nightly run, each told
    /// to use one thread, compete for the same cores.
    static func perform(_ count: Int, threads: Int = threads, _ body: (Int) -> Void) {
        let workers = min(threads, count)
        guard workers > 1 else {
            for index in 0..<count { body(index) }
            return
        }
        let next = NextIndex()
        withoutActuallyEscaping(body) { body in
            let work = UncheckedClosure(body)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while let index = next.take(below: count) { work.body(index) }
            }
        }
    }

    /// `(0..<count).map(transform)`, computed on all cores; each element is built in place.
    static func map<Element>(_ count: Int, _ transform: (Int) -> Element) -> [Element] {
        let ranges = chunks(of: count)
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            let base = UncheckedPointer(buffer.baseAddress)
            withoutActuallyEscaping(transform) { transform in
                let work = UncheckedClosure(transform)
                perform(ranges.count) { piece in
                    for index in ranges[piece] { (base.pointer! + index).initialize(to: work.body(index)) }
                }
            }
            initialized = count
        }
    }

    /// Runs `body` on each chunk of `0..<count` on all cores and returns the chunks' results in chunk order.
    static func chunked<Result>(_ count: Int, minimum: Int = 4096, _ body: (Range<Int>) -> Result) -> [Result] {
        let ranges = chunks(of: count, minimum: minimum)
        let results = ResultSlots<Result>(count: ranges.count)
        withoutActuallyEscaping(body) { body in
            let work = UncheckedClosure(body)
            perform(ranges.count) { piece in
                results[piece] = work.body(ranges[piece])
            }
        }
        return ranges.indices.map { results[$0]! }
    }
}

/// The next index for the workers of `Parallel.perform`.
private final class NextIndex: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0

    /// The next index below `count`, or `nil` when all are taken.
    func take(below count: Int) -> Int? {
        lock.withLock {
            guard next < count else { return nil }
            next += 1
            return next - 1
        }
    }
}

/// A pointer handed to worker threads that each write their own, disjoint part of the memory it points to.
private struct UncheckedPointer<Pointee>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Pointee>?
    init(_ pointer: UnsafeMutablePointer<Pointee>?) { self.pointer = pointer }
}

/// A closure that only reads shared state, called from worker threads.
private struct UncheckedClosure<Argument, Result>: @unchecked Sendable {
    let body: (Argument) -> Result
    init(_ body: @escaping (Argument) -> Result) { self.body = body }
}

/// A buffer that worker threads write at disjoint indices (each asset's own slot), and nothing reads meanwhile.
struct DisjointWrites<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }

    subscript(index: Int) -> Element {
        get { buffer[index] }
        nonmutating set { buffer[index] = newValue }
    }
}
