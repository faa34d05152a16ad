import Foundation

/// Random numbers that are first the given ones, in order, then the system's: lets a test make a random temporary
/// name collide with a file it planted.
final class ScriptedRandom: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [UInt64]

    init(_ values: [UInt64]) {
        self.values = values
    }

    /// The next scripted number, or a random one once they are used up.
    @Sendable func next() -> UInt64 {
        lock.withLock { values.isEmpty ? UInt64.random(in: .min ... .max) : values.removeFirst() }
    }
}
