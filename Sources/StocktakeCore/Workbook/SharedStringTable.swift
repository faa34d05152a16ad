/// The shared strings of a workbook being written (`xl/sharedStrings.xml`): each distinct text once, named by its
/// index, so that a column whose values repeat (a model, a building, a custodian) holds `<v>12</v>` in each cell
/// instead of the text.
///
/// Indices are given in the order texts are first added, so the same table always makes the same bytes. Texts are
/// escaped as inline strings are (see `WorksheetRow.appendEscaped`).
struct SharedStringTable: Sendable {
    /// The texts, by index.
    private(set) var texts: [String] = []
    /// How many cells refer to the texts, counting repeats (the part's `count`).
    var references = 0
    private var indices: [String: Int32] = [:]

    /// Whether the table holds no text (a workbook without one has no shared strings part).
    var isEmpty: Bool { texts.isEmpty }

    /// The index of `text`, adding it when new.
    mutating func index(of text: String) -> Int32 {
        if let index = indices[text] { return index }
        let index = Int32(texts.count)
        texts.append(text)
        indices[text] = index
        return index
    }

    /// The width of each text in characters, roughly (every byte that does not continue a UTF-8 sequence), as
    /// `WorksheetRow` measures the texts it writes.
    var widths: [Int] {
        texts.map { text in
            // Read through the text's contiguous bytes: a byte at a time through its UTF-8 view costs more.
            CellText.withBytes(of: text) { bytes in bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } }
        }
    }

    /// The bytes of `xl/sharedStrings.xml`.
    func part() -> [UInt8] {
        var output = Array(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                + "<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" count=\"\(references)\" "
                + "uniqueCount=\"\(texts.count)\">").utf8)
        for text in texts {
            var text = text
            text.withUTF8 { bytes in
                let isSpaced =
                    !bytes.isEmpty && (WorksheetRow.isSpace(bytes[0]) || WorksheetRow.isSpace(bytes[bytes.count - 1]))
                output.append(contentsOf: (isSpaced ? "<si><t xml:space=\"preserve\">" : "<si><t>").utf8)
                WorksheetRow.appendEscaped(bytes, to: &output)
                output.append(contentsOf: "</t></si>".utf8)
            }
        }
        output.append(contentsOf: "</sst>".utf8)
        return output
    }
}
