/// The shared-string table of a workbook (`xl/sharedStrings.xml`): the texts that `t="s"` cells refer to by index.
///
/// All texts are kept in one byte buffer with their end offsets, not as an array of `String`s, because a large
/// workbook holds hundreds of thousands of them. A string item's text is its `t` element, or its rich-text runs'
/// `t` elements joined; phonetic runs (`rPh`, the readings of East Asian text) are left out, and Excel's
/// `_xHHHH_` escapes are decoded. Whitespace is kept as written.
struct SharedStrings: Sendable {
    /// The UTF-8 texts, one after the other.
    private(set) var bytes: [UInt8] = []
    /// Where each text ends in `bytes`; text `i` starts where text `i - 1` ends.
    private var ends: [Int] = []

    /// An empty table, for a workbook without shared strings.
    init() {}

    /// Reads the table from the bytes of the shared-strings part.
    init(part: UnsafeBufferPointer<UInt8>) throws(XMLError) {
        var scanner = try XMLScanner(bytes: part)
        var inItem = false
        var phoneticDepth = 0
        var inText = false
        var itemStart = 0
        while let token = try scanner.next() {
            switch token {
            case .start(let tag):
                if scanner.isName(tag.name, "si") {
                    inItem = true
                    itemStart = bytes.count
                    if tag.isEmpty { finishItem(from: itemStart, &inItem) }
                } else if scanner.isName(tag.name, "rPh") {
                    if !tag.isEmpty { phoneticDepth += 1 }
                } else if scanner.isName(tag.name, "t") {
                    inText = inItem && phoneticDepth == 0 && !tag.isEmpty
                }
            case .end(let name):
                if scanner.isName(name, "si") {
                    finishItem(from: itemStart, &inItem)
                } else if scanner.isName(name, "rPh") {
                    phoneticDepth -= 1
                } else if scanner.isName(name, "t") {
                    inText = false
                }
            case .text(let range):
                if inText { try scanner.appendDecoded(range, to: &bytes) }
            case .characterData(let range):
                if inText { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: part[range])) }
            }
        }
    }

    private mutating func finishItem(from start: Int, _ inItem: inout Bool) {
        ExcelEscape.decode(&bytes, from: start)
        ends.append(bytes.count)
        inItem = false
    }

    /// The number of texts.
    var count: Int { ends.count }

    /// Where text `index` lies in `bytes`, or nil when the table has no such text.
    func range(at index: Int) -> Range<Int>? {
        guard index >= 0 && index < ends.count else { return nil }
        return (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// Text `index` as a string (for tests and messages), or nil when the table has no such text.
    func string(at index: Int) -> String? {
        range(at: index).map { String(decoding: bytes[$0], as: UTF8.self) }
    }
}
