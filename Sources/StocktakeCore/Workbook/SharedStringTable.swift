/// The shared strings of a workbook being written (`xl/sharedStrings.xml`): each distinct text once, named by its
/// index, so that a column whose values repeat (a model, a building, a custodian) holds `<v>12</v>` in each cell
/// instead of the text.
///
/// Indices are given in the order texts are first added, so the same table always makes the same bytes. Texts are
/// escaped as inline strings are (see `WorksheetRow.appendEscaped`).
///
/// Texts are told apart by their bytes (a `TextPool`), as every other table of stocktake tells texts apart: two
/// spellings of "é" that a `String` comparison takes as equal stay two shared strings, each cell keeping its own
/// bytes. Looking up the bytes also costs a fraction of hashing a `String`.
struct SharedStringTable: Sendable {
    /// The texts, by index.
    private(set) var texts: [String] = []
    /// How many cells refer to the texts, counting repeats (the part's `count`).
    var references = 0
    /// The index of each text, by its bytes: the pool numbers texts in the order first seen, as the table does.
    private var indices = TextPool()

    /// Whether the table holds no text (a workbook without one has no shared strings part).
    var isEmpty: Bool { texts.isEmpty }

    /// The index of `text`, adding it when new.
    mutating func index(of text: String) -> Int32 {
        let (index, isNew) = CellText.withBytes(of: text) { indices.intern($0) }
        if isNew { texts.append(text) }
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
