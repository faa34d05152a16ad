/// A growable run of bytes that the output writers append to a few at a time: a cell, a comma, a tag's digits,
/// a piece of markup.
///
/// `[UInt8].append(contentsOf:)` checks that the array's storage is not shared, checks its capacity and copies
/// through generic code on every call: some 90 instructions for the few bytes of a separator or a tag, which a
/// profile of the write phase counted by the hundred thousand. A `ByteBuffer` owns its memory and cannot be
/// copied, so nothing can share it: an append is a capacity check and a copy, inlined, and the memory is
/// reallocated (twice as large) only when it is full. `bytes` copies what was written into an array, for the code
/// that takes one.
struct ByteBuffer: ~Copyable, ByteSink {
    private var start: UnsafeMutablePointer<UInt8>
    /// The bytes written so far.
    private(set) var count = 0
    /// The bytes the memory holds before it must grow.
    private(set) var capacity: Int

    /// An empty buffer with room for at least `capacity` bytes.
    init(capacity: Int = 0) {
        self.capacity = max(capacity, 64)
        start = .allocate(capacity: self.capacity)
    }

    deinit {
        start.deallocate()
    }

    /// Whether nothing has been written.
    var isEmpty: Bool { count == 0 }

    /// A copy of the bytes written.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    /// The byte at `index`, which must be below `count`.
    subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < count, "index out of range")
        return start[index]
    }

    /// Calls `body` with the bytes written; they must not be used after it returns.
    func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// Calls `body` with the bytes written; they must not be used after it returns.
    func withUnsafeBufferPointer<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeBufferPointer(start: start, count: count))
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        (start + count).initialize(to: byte)
        count += 1
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        if bytes.count > capacity - count { grow(toHold: count + bytes.count) }
        ShortCopy.copy(from: base, to: start + count, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: UnsafeRawBufferPointer(bytes))
    }

    @inline(__always)
    mutating func append(atMost maximum: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        if maximum > capacity - count { grow(toHold: count + maximum) }
        let written = write(start + count)
        precondition(written >= 0 && written <= maximum, "wrote more bytes than room was made for")
        count += written
    }

    mutating func removeLast(_ count: Int) {
        precondition(count >= 0 && count <= self.count, "removing more bytes than were written")
        self.count -= count
    }

    /// Forgets every byte written, keeping the memory for the next ones.
    mutating func removeAll() {
        count = 0
    }

    /// Makes room for `capacity` bytes in all, so that appends up to it do not grow the memory.
    mutating func reserveCapacity(_ capacity: Int) {
        if capacity > self.capacity { grow(toHold: capacity) }
    }

    /// Moves the bytes into memory for at least `needed` bytes, at least twice the current size.
    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let newCapacity = max(capacity * 2, needed)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.moveInitialize(from: start, count: count)
        start.deallocate()
        start = newStart
        capacity = newCapacity
    }
}
