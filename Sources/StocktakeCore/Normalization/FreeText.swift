/// Cleans free-text fields (model, description, room, mount, custodian, stock number) so that values
/// typed differently in different sheets compare equal when they mean the same.
public enum FreeText {
    /// Reads a free-text value from raw cell bytes.
    ///
    /// Trims blanks, then applies `style`: case mapping changes ASCII letters only and keeps every other byte
    /// as it is; `.upperCasedCollapsingSpaces` also turns each run of spaces or tabs into one space. Blanks and
    /// placeholders are `.empty`. Free text is never `.invalid`.
    ///
    /// The fields use: model `.upperCased`, description `.trimmed`, room `.upperCasedCollapsingSpaces`,
    /// mount `.lowerCased`, custodian `.trimmed`, stock number `.trimmed`.
    public static func normalize(_ cell: UnsafeBufferPointer<UInt8>, style: TextStyle) -> Normalized<String> {
        guard let trimmed = valueBytes(cell) else { return .empty }
        // Bytes that are not UTF-8 are repaired, as `String(decoding:as:)` repairs them.
        return .value(
            String(unsafeUninitializedCapacity: trimmed.count) { write(trimmed, style: style, to: $0.baseAddress!) })
    }

    /// Calls `body` with the bytes of the cell's normalized text (the same text `normalize` returns), without
    /// making a `String` or allocating: the trimmed cell itself, or its case-mapped copy on the stack. Returns
    /// `nil` without calling `body` when the cell is `.empty`.
    static func withNormalizedBytes<Result>(
        _ cell: UnsafeBufferPointer<UInt8>, style: TextStyle, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        guard let trimmed = valueBytes(cell) else { return nil }
        if isMapped(trimmed, style: style) { return body(trimmed) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: trimmed.count) { output in
            body(
                UnsafeBufferPointer(
                    start: output.baseAddress!, count: write(trimmed, style: style, to: output.baseAddress!)))
        }
    }

    /// The trimmed bytes of a cell that holds a value; `nil` for a blank or a placeholder, which is `.empty`.
    @inline(__always)
    static func valueBytes(_ cell: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        let trimmed = ByteTrim.trimmed(cell)
        return Placeholder.isEmptyOrPlaceholder(trimmed) ? nil : trimmed
    }

    /// Writes the normalized text of `trimmed` (`valueBytes` of a cell) at `output`, which has room for
    /// `trimmed.count` bytes (the text never grows); returns how many it wrote.
    @inline(__always)
    static func write(_ trimmed: UnsafeBufferPointer<UInt8>, style: TextStyle, to output: UnsafeMutablePointer<UInt8>)
        -> Int
    {
        let room = UnsafeMutableBufferPointer(start: output, count: trimmed.count)
        switch style {
        case .trimmed:
            _ = room.initialize(from: trimmed)
            return trimmed.count
        case .upperCased: return map(trimmed, into: room, collapsingSpaces: false, CellText.upperCased)
        case .upperCasedCollapsingSpaces: return map(trimmed, into: room, collapsingSpaces: true, CellText.upperCased)
        case .lowerCased: return map(trimmed, into: room, collapsingSpaces: false, CellText.lowerCased)
        }
    }

    /// Whether `bytes` read the same after `style` (nearly every model is upper-case already, every room without a
    /// double space): such a text is passed on as it is, not copied.
    private static func isMapped(_ bytes: UnsafeBufferPointer<UInt8>, style: TextStyle) -> Bool {
        switch style {
        case .trimmed:
            return true
        case .upperCased:
            return !bytes.contains { $0 &- UInt8(ascii: "a") < 26 }
        case .lowerCased:
            return !bytes.contains { $0 &- UInt8(ascii: "A") < 26 }
        case .upperCasedCollapsingSpaces:
            var previousWasSpace = false
            for byte in bytes {
                if byte &- UInt8(ascii: "a") < 26 || byte == 0x09 || (byte == 0x20 && previousWasSpace) { return false }
                previousWasSpace = byte == 0x20
            }
            return true
        }
    }

    /// Reads a free-text value from text, with the same rules as the byte overload.
    public static func normalize(_ text: String, style: TextStyle) -> Normalized<String> {
        CellText.withBytes(of: text) { normalize($0, style: style) }
    }

    /// Writes `bytes` with `transform` applied to every byte (and optionally each run of spaces and tabs made one
    /// space) to the start of `output`, which holds at least `bytes.count` bytes; returns how many it wrote.
    private static func map(
        _ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, collapsingSpaces: Bool,
        _ transform: (UInt8) -> UInt8
    ) -> Int {
        var count = 0
        var previousWasBlank = false
        for byte in bytes {
            let isBlank = byte == 0x20 || byte == 0x09
            if collapsingSpaces && isBlank {
                if !previousWasBlank {
                    output[count] = 0x20
                    count += 1
                }
            } else {
                output[count] = transform(byte)
                count += 1
            }
            previousWasBlank = isBlank
        }
        return count
    }
}
