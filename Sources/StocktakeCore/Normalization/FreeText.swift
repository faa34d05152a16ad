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
        let trimmed = ByteTrim.trimmed(cell)
        if Placeholder.isEmptyOrPlaceholder(trimmed) {
            return .empty
        }
        switch style {
        case .trimmed:
            return .value(String(decoding: trimmed, as: UTF8.self))
        case .upperCased:
            return .value(mapped(trimmed, collapsingSpaces: false, CellText.upperCased))
        case .upperCasedCollapsingSpaces:
            return .value(mapped(trimmed, collapsingSpaces: true, CellText.upperCased))
        case .lowerCased:
            return .value(mapped(trimmed, collapsingSpaces: false, CellText.lowerCased))
        }
    }

    /// Calls `body` with the bytes of the cell's normalized text (the same text `normalize` returns), without
    /// making a `String` or allocating: the trimmed cell itself, or its case-mapped copy on the stack. Returns
    /// `nil` without calling `body` when the cell is `.empty`.
    static func withNormalizedBytes<Result>(
        _ cell: UnsafeBufferPointer<UInt8>, style: TextStyle, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        let trimmed = ByteTrim.trimmed(cell)
        if Placeholder.isEmptyOrPlaceholder(trimmed) {
            return nil
        }
        let transform: (UInt8) -> UInt8
        let collapsingSpaces: Bool
        switch style {
        case .trimmed: return body(trimmed)
        case .upperCased: (transform, collapsingSpaces) = (CellText.upperCased, false)
        case .upperCasedCollapsingSpaces: (transform, collapsingSpaces) = (CellText.upperCased, true)
        case .lowerCased: (transform, collapsingSpaces) = (CellText.lowerCased, false)
        }
        if isMapped(trimmed, style: style) { return body(trimmed) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: trimmed.count) { output in
            let count = map(trimmed, into: output, collapsingSpaces: collapsingSpaces, transform)
            return body(UnsafeBufferPointer(rebasing: output[0..<count]))
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

    /// The text of `bytes` with `transform` applied to every byte, and optionally each run of spaces and tabs
    /// made one space.
    private static func mapped(
        _ bytes: UnsafeBufferPointer<UInt8>, collapsingSpaces: Bool, _ transform: (UInt8) -> UInt8
    ) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { output in
            map(bytes, into: output, collapsingSpaces: collapsingSpaces, transform)
        }
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
