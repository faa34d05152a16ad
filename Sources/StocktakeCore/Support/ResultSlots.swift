import Foundation

/// Fixed slots that concurrent workers each fill once: files read in parallel, accounts run in parallel.
public final class ResultSlots<Value>: @unchecked Sendable {
    private var values: [Value?]
    private let lock = NSLock()

    public init(count: Int) {
        values = Array(repeating: nil, count: count)
    }

    public subscript(index: Int) -> Value? {
        get { lock.withLock { values[index] } }
        set { lock.withLock { values[index] = newValue } }
    }
}
