/// The bytes of an HTML page being written: markup and text appended in place, data escaped as it is appended and
/// numbers written digit by digit, so that a section of thousands of elements builds no string per element.
///
/// The report is written into one buffer (or one per section, joined in the page's order) and handed to the file
/// as bytes; `text` makes it a `String` for callers that want one.
struct HTMLBuffer: Sendable {
    /// The UTF-8 bytes written so far.
    private(set) var bytes: [UInt8] = []

    /// An empty buffer with room for `capacity` bytes.
    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The bytes as text.
    var text: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Empties the buffer, keeping its room.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends markup (or text known to hold no special character) as it is.
    mutating func append(_ markup: String) {
        bytes.append(contentsOf: markup.utf8)
    }

    /// Appends another buffer's bytes.
    mutating func append(_ other: HTMLBuffer) {
        bytes.append(contentsOf: other.bytes)
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
            bytes.append(contentsOf: text[start..<position])
            replacement.withUTF8Buffer { bytes.append(contentsOf: $0) }
            position = text.index(after: position)
            start = position
        }
        bytes.append(contentsOf: text[start..<position])
    }

    /// Appends a whole number in decimal: `-42`.
    mutating func append(_ number: Int) {
        if number < 0 { bytes.append(0x2D) }
        appendDigits(UInt64(number.magnitude), grouped: false)
    }

    /// Appends a whole number in decimal: `4512`.
    mutating func append(_ number: UInt64) {
        appendDigits(number, grouped: false)
    }

    /// Appends a whole number with thousands separators, as `grouped` writes it: `-1,024`.
    mutating func append(grouped number: Int) {
        if number < 0 { bytes.append(0x2D) }
        appendDigits(UInt64(number.magnitude), grouped: true)
    }

    /// Appends a count with its noun, as `counted` writes it: `1 error`, `2,000 errors`.
    mutating func append(counted count: Int, _ singular: String, _ plural: String? = nil) {
        append(grouped: count)
        bytes.append(0x20)
        if count == 1 {
            append(singular)
        } else if let plural {
            append(plural)
        } else {
            append(singular)
            bytes.append(0x73)
        }
    }

    /// Appends `value` to one decimal, rounded half away from zero, without a sign when it rounds to zero:
    /// `20.0`, `3.1`, `-0.3`, `0.0`.
    mutating func append(tenths value: Double) {
        let tenths = Int((value * 10).rounded())
        if tenths < 0 { bytes.append(0x2D) }
        let magnitude = UInt64(tenths.magnitude)
        appendDigits(magnitude / 10, grouped: false)
        bytes.append(0x2E)
        bytes.append(0x30 + UInt8(magnitude % 10))
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
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
