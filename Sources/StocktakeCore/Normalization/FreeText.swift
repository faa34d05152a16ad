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

    /// Reads a free-text value from text, with the same rules as the byte overload.
    public static func normalize(_ text: String, style: TextStyle) -> Normalized<String> {
        CellText.withBytes(of: text) { normalize($0, style: style) }
    }

    /// The text of `bytes` with `transform` applied to every byte, and optionally each run of spaces and tabs
    /// made one space.
    private static func mapped(
        _ bytes: UnsafeBufferPointer<UInt8>, collapsingSpaces: Bool, _ transform: (UInt8) -> UInt8
    ) -> String {
        let text = String(unsafeUninitializedCapacity: bytes.count) { output in
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
        return text
    }
}
