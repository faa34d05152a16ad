import Dispatch
import Foundation

/// Work split over the machine's cores in contiguous chunks, with results in the order a loop would give.
public enum Parallel {
    /// The threads a run uses: `STOCKTAKE_THREADS` when set to a positive number (the benchmark's `--threads`, or
    /// a nightly run that already keeps every core busy with one account per core), else one per active core.
    ///
    /// Decided when first asked, then kept: Foundation reads the cgroup's CPU files for each `activeProcessorCount`,
    /// and a run asks for its threads a dozen times. The account launcher's warm-up (`withoutThreads`) forgets what
    /// it used, so that each process the launcher forks decides from its own environment, its account's.
    public static var threads: Int { decision.threads }

    private static let decision = ThreadDecision()

    /// Whether work may start threads of its own (`false` only within `withoutThreads`).
    public static var mayStartThreads: Bool { decision.mayStartThreads }

    /// Runs `body` on the calling thread alone, then forgets the threads decided so far: within it `threads` is 1
    /// and nothing starts a thread, not even to flush a file (`AtomicFileWriter`). The account launcher warms up so:
    /// a process that forks must have no other thread, and each thread would leave it an arena of the C library's
    /// memory allocator (64 MB of address space) and a cached stack, which every process it forks would inherit
    /// within its own memory limit.
    public static func withoutThreads<Result>(_ body: () throws -> Result) rethrows -> Result {
        decision.set(1, mayStartThreads: false)
        defer { decision.set(nil) }
        return try body()
    }

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

    /// Runs `side` on a thread of its own while the calling thread runs `main`, and returns both results once both are
    /// done: for work that would otherwise leave a core idle after a stretch that keeps all of them busy. With fewer
    /// than two `threads`, or where no thread may start, `main` and then `side` run on the calling thread.
    static func alongside<Side, Main>(
        threads: Int = threads, _ side: @escaping @Sendable () -> Side, _ main: () -> Main
    ) -> (side: Side, main: Main) {
        guard threads > 1, mayStartThreads else {
            let mainResult = main()
            return (side(), mainResult)
        }
        let sideResult = ResultSlots<Side>(count: 1)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            sideResult[0] = side()
            done.signal()
        }
        let mainResult = main()
        done.wait()
        return (sideResult[0]!, mainResult)
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

/// The threads `Parallel` decided on, if it has, and whether threads may be started.
private final class ThreadDecision: @unchecked Sendable {
    private let lock = NSLock()
    private var decided: Int?
    private var threadsAllowed = true

    var threads: Int {
        lock.withLock {
            if let decided { return decided }
            let info = ProcessInfo.processInfo
            let threads = Parallel.threads(environment: info.environment, cores: info.activeProcessorCount)
            decided = threads
            return threads
        }
    }

    var mayStartThreads: Bool { lock.withLock { threadsAllowed } }

    func set(_ threads: Int?, mayStartThreads: Bool = true) {
        lock.withLock {
            decided = threads
            threadsAllowed = mayStartThreads
        }
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

#if canImport(Glibc)
    import Glibc
#endif

extension Parallel {
    /// The stack of a thread `detach` starts: a flush calls a few functions deep.
    static let detachedStackBytes = 256 << 10

    /// Runs `work` on a new thread of its own and returns at once; on the calling thread, before returning, where no
    /// thread may start (`withoutThreads`) or none can.
    ///
    /// For short work that calls little, such as flushing one file: the thread is the C library's, with a stack of
    /// `stackBytes`, not a Foundation `Thread` with its 8 MB stack and its own records. An account's process starts
    /// ten such threads, one per output it flushes, and Foundation's cost about 4 page faults more each (about 40 an
    /// account, 6 % of a 100-asset account's faults).
    static func detach(stackBytes: Int = detachedStackBytes, _ work: @escaping @Sendable () -> Void) {
        guard mayStartThreads else { return work() }
        final class Work {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let retained = Unmanaged.passRetained(Work(work)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let started = pthread_create(
            &thread, &attributes,
            { retained in
                Unmanaged<Work>.fromOpaque(retained!).takeRetainedValue().body()
                return nil
            }, retained)
        if started != 0 { Unmanaged<Work>.fromOpaque(retained).takeRetainedValue().body() }
    }
}
