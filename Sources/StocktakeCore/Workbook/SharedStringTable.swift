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
    /// The texts' bytes, by index: the pool numbers texts in the order first seen, as the table does.
    private var pool = TextPool()
    /// How many cells refer to the texts, counting repeats (the part's `count`).
    var references = 0

    /// How many distinct texts the table holds.
    var count: Int { pool.count }

    /// Whether the table holds no text (a workbook without one has no shared strings part).
    var isEmpty: Bool { pool.count == 0 }

    /// The index of `text`, adding it when new.
    mutating func index(of text: String) -> Int32 {
        CellText.withBytes(of: text) { pool.intern($0).id }
    }

    /// The bytes of the text at `index`.
    func bytes(at index: Int) -> ArraySlice<UInt8> {
        pool[Int32(index)]
    }

    /// The texts, by index, made from their bytes.
    var texts: [String] {
        (0..<count).map { String(decoding: bytes(at: $0), as: UTF8.self) }
    }

    /// The width of each text in characters, roughly (every byte that does not continue a UTF-8 sequence), as
    /// `WorksheetRow` measures the texts it writes.
    var widths: [Int] {
        (0..<count).map { index in bytes(at: index).reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } }
    }

    /// The bytes of `xl/sharedStrings.xml`.
    func part() -> [UInt8] {
        var output = Array(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                + "<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" count=\"\(references)\" "
                + "uniqueCount=\"\(count)\">").utf8)
        for index in 0..<count {
            bytes(at: index).withUnsafeBufferPointer { bytes in
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
