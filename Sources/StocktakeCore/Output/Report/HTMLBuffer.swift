/// The bytes of an HTML page being written: markup and text appended in place, data escaped as it is appended and
/// numbers written digit by digit, so that a section of thousands of elements builds no string per element.
///
/// The report is written into one buffer (or one per section, joined in the page's order) and handed to the file
/// as bytes; `text` makes it a `String` for callers that want one.
///
/// The bytes live in a `ByteBuffer`, shared by a buffer's copies until one of them is written to: an append is a
/// uniqueness check and the `ByteBuffer`'s append. `[UInt8].append(contentsOf:)` went through generic code that
/// cost about 100 instructions even for the few bytes of a tag, and a report appends markup by the thousand.
struct HTMLBuffer: Sendable {
    /// The bytes of a buffer, shared by its copies until one of them is written to.
    private final class Storage: @unchecked Sendable {
        // Read and changed only by the buffer that holds the only reference (see `makeOwn`): the runtime's checks
        // of exclusive access would cost more than the appends they guard.
        @exclusivity(unchecked) var buffer: ByteBuffer

        init(capacity: Int) {
            buffer = ByteBuffer(capacity: capacity)
        }

        /// A copy of the bytes, with as much room.
        func copy() -> Storage {
            let copy = Storage(capacity: buffer.capacity)
            buffer.withUnsafeBufferPointer { copy.buffer.append(contentsOf: $0) }
            return copy
        }
    }

    private var storage: Storage

    /// An empty buffer with room for `capacity` bytes.
    init(capacity: Int = 0) {
        storage = Storage(capacity: capacity)
    }

    /// How many bytes have been written.
    var count: Int { storage.buffer.count }

    /// The UTF-8 bytes written so far.
    var bytes: [UInt8] { withUnsafeBufferPointer { Array($0) } }

    /// The bytes as text.
    var text: String {
        withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the bytes written; they must not be used after it returns.
    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        storage.buffer.withUnsafeBufferPointer(body)
    }

    /// Empties the buffer, keeping its room.
    mutating func removeAll() {
        if isKnownUniquelyReferenced(&storage) {
            storage.buffer.removeAll()
        } else {
            storage = Storage(capacity: storage.buffer.capacity)
        }
    }

    /// Makes the bytes this buffer's own before it writes to them: a copy's are copied first.
    @inline(__always)
    private mutating func makeOwn() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Appends bytes.
    @inline(__always)
    private mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        makeOwn()
        storage.buffer.append(contentsOf: bytes)
    }

    /// Appends one byte.
    @inline(__always)
    private mutating func append(byte: UInt8) {
        makeOwn()
        storage.buffer.append(byte)
    }

    /// Appends markup (or text known to hold no special character) as it is.
    mutating func append(_ markup: String) {
        let done: Void? = markup.utf8.withContiguousStorageIfAvailable { append(bytes: $0) }
        if done == nil { Array(markup.utf8).withUnsafeBufferPointer { append(bytes: $0) } }
    }

    /// Appends another buffer's bytes.
    mutating func append(_ other: HTMLBuffer) {
        other.withUnsafeBufferPointer { append(bytes: $0) }
    }

    /// Appends `text` made safe for an element or a quoted attribute, as `HTMLReport.escape` makes it.
    mutating func append(escaped text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { appendEscaped($0) }
        if done == nil { appendEscaped(Array(text.utf8)) }
    }

    private mutating func appendEscaped(_ text: some RandomAccessCollection<UInt8>) {
        var start = text.startIndex
        var position = start
        while position != text.endIndex {
            let replacement: StaticString
            switch text[position] {
            case 0x26: replacement = "&amp;"
            case 0x3C: replacement = "&lt;"
            case 0x3E: replacement = "&gt;"
            case 0x22: replacement = "&quot;"
            case 0x27: replacement = "&#39;"
            default:
                position = text.index(after: position)
                continue
            }
            appendSlice(text[start..<position])
            replacement.withUTF8Buffer { append(bytes: $0) }
            position = text.index(after: position)
            start = position
        }
        appendSlice(text[start..<position])
    }

    private mutating func appendSlice(_ slice: some Collection<UInt8>) {
        let done: Void? = slice.withContiguousStorageIfAvailable { append(bytes: $0) }
        if done == nil { Array(slice).withUnsafeBufferPointer { append(bytes: $0) } }
    }

    /// Appends a whole number in decimal: `-42`.
    mutating func append(_ number: Int) {
        if number < 0 { append(byte: 0x2D) }
        appendDigits(UInt64(number.magnitude), grouped: false)
    }

    /// Appends a whole number in decimal: `4512`.
    mutating func append(_ number: UInt64) {
        appendDigits(number, grouped: false)
    }

    /// Appends a whole number with thousands separators, as `grouped` writes it: `-1,024`.
    mutating func append(grouped number: Int) {
        if number < 0 { append(byte: 0x2D) }
        appendDigits(UInt64(number.magnitude), grouped: true)
    }

    /// Appends a count with its noun, as `counted` writes it: `1 error`, `2,000 errors`.
    mutating func append(counted count: Int, _ singular: String, _ plural: String? = nil) {
        append(grouped: count)
        append(byte: 0x20)
        if count == 1 {
            append(singular)
        } else if let plural {
            append(plural)
        } else {
            append(singular)
            append(byte: 0x73)
        }
    }

    /// Appends `value` to one decimal, rounded half away from zero, without a sign when it rounds to zero:
    /// `20.0`, `3.1`, `-0.3`, `0.0`.
    mutating func append(tenths value: Double) {
        let tenths = Int((value * 10).rounded())
        if tenths < 0 { append(byte: 0x2D) }
        let magnitude = UInt64(tenths.magnitude)
        appendDigits(magnitude / 10, grouped: false)
        append(byte: 0x2E)
        append(byte: 0x30 + UInt8(magnitude % 10))
    }

    /// Writes the digits of `value` (with a comma between thousands when `grouped`), last first on the stack, then
    /// appends them at once.
    private mutating func appendDigits(_ value: UInt64, grouped: Bool) {
        // 20 digits and 6 commas at most.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digits in
            var start = digits.count
            var rest = value
            var count = 0
            repeat {
                if grouped && count > 0 && count % 3 == 0 {
                    start -= 1
                    digits[start] = 0x2C
                }
                start -= 1
                digits[start] = 0x30 + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            append(bytes: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
