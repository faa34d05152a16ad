/// A serial number's canonical text in eight bytes, which rows hold and identification compares as an integer.
///
/// A serial of at most 12 digits and upper-case letters (nearly every one: HP writes 10, Dell 7, Apple 12) is its
/// own number: its characters in base 37, the first the most significant, digits as 1 to 10 and letters as 11 to
/// 36. No character is 0, so texts of different lengths never give the same number, and the largest (37^12 - 1) is
/// below 2^63. Any other serial is its id in `SharedTexts` under the top two bits `10`. A text is always coded the
/// same way, so two codes are equal exactly when their texts are; 0 is no serial.
///
/// Reading a million assets' rows added every serial to the shared table, a lookup at a random place in a table far
/// larger than the caches for each row; a serial made a number costs a few multiplications instead.
struct SerialCode: Hashable, Sendable {
    /// The code: the number of an inline serial, or the marked id or batch index of another; 0 for none.
    let rawValue: UInt64

    /// No serial number.
    static let none = SerialCode(rawValue: 0)
    /// The most characters a serial kept as its own number has.
    static let longestInline = 12

    private static let markBits: UInt64 = 0b11 << 62
    private static let pooled: UInt64 = 0b10 << 62
    private static let pending: UInt64 = 0b11 << 62

    init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// The code of a serial whose canonical text is `bytes`, adding the text to `SharedTexts` when it cannot be a
    /// number.
    init(canonical bytes: UnsafeBufferPointer<UInt8>) {
        self = Self.inline(bytes) ?? SerialCode(pooled: SharedTexts.shared.id(of: bytes))
    }

    /// The code of a serial whose canonical text is `text` (as `SerialNumber` holds it).
    init(canonical text: String) {
        self = CellText.withBytes(of: text) { SerialCode(canonical: $0) }
    }

    /// The code of the text with id `id` in `SharedTexts`, which is not one `inline(_:)` makes a number.
    init(pooled id: Int32) {
        rawValue = Self.pooled | UInt64(UInt32(bitPattern: id))
    }

    /// A code that stands for the serial at `index` of a reader's `TextBatch` until the batch is added to
    /// `SharedTexts` (`ReadState`); only `pendingIndex` reads it.
    init(pendingIndex index: Int32) {
        rawValue = Self.pending | UInt64(UInt32(bitPattern: index))
    }

    /// The code of `bytes` as a number, when they are 1 to 12 digits and upper-case letters; `nil` otherwise.
    @inline(__always)
    static func inline(_ bytes: UnsafeBufferPointer<UInt8>) -> SerialCode? {
        guard bytes.count > 0, bytes.count <= longestInline else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            let digit = byte &- UInt8(ascii: "0")
            let letter = byte &- UInt8(ascii: "A")
            let symbol: UInt64
            if digit < 10 {
                symbol = UInt64(digit) + 1
            } else if letter < 26 {
                symbol = UInt64(letter) + 11
            } else {
                return nil
            }
            // At most 12 symbols below 37: the value stays below 37^12.
            value = value &* 37 &+ symbol
        }
        return SerialCode(rawValue: value)
    }

    /// Whether there is no serial.
    var isNone: Bool { rawValue == 0 }

    /// The integer the index of serials keys this serial by (the code itself); `nil` for no serial.
    var indexKey: UInt64? { isNone ? nil : rawValue }

    /// The id in `SharedTexts` of a serial that is not a number; `nil` for one that is, and for none.
    var pooledID: Int32? {
        rawValue & Self.markBits == Self.pooled ? Int32(bitPattern: UInt32(truncatingIfNeeded: rawValue)) : nil
    }

    /// The batch index of a code made with `init(pendingIndex:)`; `nil` for any other.
    var pendingIndex: Int32? {
        rawValue & Self.markBits == Self.pending ? Int32(bitPattern: UInt32(truncatingIfNeeded: rawValue)) : nil
    }

    /// Calls `body` with the canonical text's UTF-8 bytes (none for no serial).
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let id = pooledID {
            var text = SharedTexts.shared.string(id)
            return text.withUTF8(body)
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.longestInline) { buffer in
            var value = rawValue
            var start = Self.longestInline
            while value != 0 {
                let symbol = UInt8(truncatingIfNeeded: value % 37)
                value /= 37
                start -= 1
                buffer[start] = symbol <= 10 ? UInt8(ascii: "0") + symbol - 1 : UInt8(ascii: "A") + symbol - 11
            }
            return body(UnsafeBufferPointer(rebasing: buffer[start..<Self.longestInline]))
        }
    }

    /// The serial number; `nil` for none.
    var serialNumber: SerialNumber? {
        if let id = pooledID { return SerialNumber(canonical: SharedTexts.shared.string(id)) }
        return isNone ? nil : SerialNumber(canonical: withBytes { String(decoding: $0, as: UTF8.self) })
    }
}
