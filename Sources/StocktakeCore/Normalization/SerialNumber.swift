/// A manufacturer's serial number, in canonical form: upper-case ASCII letters and no blanks.
///
/// The second identifier used to join rows into one asset. Scanners, clerks and controller exports
/// write the same serial with different case and spacing, so the canonical form removes both.
public struct SerialNumber: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The canonical text: trimmed, ASCII letters upper-cased, all inner spaces and tabs removed.
    public let text: String

    /// Wraps text that is already canonical (for example read back from a cleaned table); `nil` when empty.
    /// Use `normalize(_:)` for text straight from a spreadsheet.
    public init?(canonical: String) {
        if canonical.isEmpty {
            return nil
        }
        text = canonical
    }

    /// The canonical text.
    public var description: String { text }

    /// Orders serial numbers by their canonical text.
    public static func < (lhs: SerialNumber, rhs: SerialNumber) -> Bool {
        lhs.text < rhs.text
    }

    /// Reads a serial number from raw cell bytes.
    ///
    /// Trims blanks, upper-cases ASCII letters and removes inner spaces, tabs and no-break spaces. Blanks,
    /// placeholders (such as `To Be Filled By O.E.M.`, also once its spaces are removed) and serials made only of
    /// zeros are `.empty`, because they would otherwise match unrelated devices. Control characters and bytes that
    /// are not UTF-8 make the cell `.invalid`.
    public static func normalize(_ cell: UnsafeBufferPointer<UInt8>) -> Normalized<SerialNumber> {
        withCanonicalBytes(cell) { SerialNumber(uncheckedCanonical: String(decoding: $0, as: UTF8.self)) }
    }

    /// Like `normalize(_:)`, calling `body` with the bytes of the canonical text (on the stack, not a `String`).
    static func withCanonicalBytes<Result>(
        _ cell: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Normalized<Result> {
        let trimmed = ByteTrim.trimmed(cell)
        if Placeholder.isEmptyOrPlaceholder(trimmed) {
            return .empty
        }
        var isASCII = true
        // Whether every byte is a digit or an upper-case letter: the text is then canonical already.
        var isCanonical = true
        for index in trimmed.indices {
            let byte = trimmed[index]
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
                return .invalid(
                    reason: "contains \(CellText.describeCharacter(in: trimmed, at: index)); retype the serial number")
            }
            isASCII = isASCII && byte < 0x80
            isCanonical = isCanonical && (byte &- UInt8(ascii: "0") < 10 || byte &- UInt8(ascii: "A") < 26)
        }
        if isCanonical {
            // The placeholder check above saw these very bytes.
            return trimmed.allSatisfy({ $0 == UInt8(ascii: "0") }) ? .empty : .value(body(trimmed))
        }
        // Bytes that are not UTF-8 would join into other characters once the blanks between them are removed
        // (C2 20 A0 would become a no-break space), so the canonical form would not read back.
        if !isASCII && String(validating: trimmed, as: UTF8.self) == nil {
            return .invalid(reason: "holds bytes that are not UTF-8; retype the serial number")
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: trimmed.count) { output in
            var count = 0
            var index = trimmed.startIndex
            while index < trimmed.endIndex {
                let byte = trimmed[index]
                if byte == 0x20 || byte == 0x09 {
                    index += 1
                } else if byte == 0xC2 && index + 1 < trimmed.endIndex && trimmed[index + 1] == 0xA0 {
                    index += 2
                } else {
                    output[count] = CellText.upperCased(byte)
                    count += 1
                    index += 1
                }
            }
            let canonical = UnsafeBufferPointer(rebasing: output[0..<count])
            // Checked on the canonical bytes, so that what is written reads back the same: "N A" loses its space
            // and would read back as the placeholder "NA", "0 0" (a no-break space between) as the zeros "00".
            if Placeholder.isEmptyOrPlaceholder(canonical) || canonical.allSatisfy({ $0 == UInt8(ascii: "0") }) {
                return .empty
            }
            return .value(body(canonical))
        }
    }

    /// Reads a serial number from text, with the same rules as the byte overload.
    public static func normalize(_ text: String) -> Normalized<SerialNumber> {
        CellText.withBytes(of: text) { normalize($0) }
    }

    /// Wraps text the normalizer has just made canonical.
    private init(uncheckedCanonical: String) {
        text = uncheckedCanonical
    }
}
